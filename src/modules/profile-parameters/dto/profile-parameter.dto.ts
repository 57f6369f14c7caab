import { applyDecorators } from '@nestjs/common';
import { IsDefined, NotEquals } from 'class-validator';
import { ColumnInt } from 'src/common/validation/rules';

/** ozzo's Required on an id: absent, null or 0 is `cannot be blank`. */
function RequiredId(): PropertyDecorator {
  return applyDecorators(
    IsDefined({ message: 'cannot be blank' }),
    ColumnInt(),
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
