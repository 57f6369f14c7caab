import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsInt, NotEquals } from 'class-validator';

/** ozzo's Required on an id: absent, null or 0 is `cannot be blank`. */
function RequiredId(): PropertyDecorator {
  return applyDecorators(
    IsDefined({ message: 'cannot be blank' }),
    IsInt({ message: 'must be an integer' }),
    NotEquals(0, { message: 'cannot be blank' }),
  );
}

/** One element of the body of POST /profileparameters (a single object or an array of them). */
export class ProfileParameterDto {
  @RequiredId()
  profileId!: number;

  @RequiredId()
  parameterId!: number;
}
