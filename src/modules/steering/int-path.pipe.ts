import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

/**
 * An integer path parameter refused with the exact text the original's handler family uses for it:
 * the steering-target routes word a bad `{deliveryservice}` or `{target}` differently by method
 * (`deliveryservice cannot parse to integer` on reads, `failed to parse key: target` on updates and
 * deletes, `delivery service ID must be an integer` on creates), which the shared pipes cannot say.
 */
@Injectable()
export class IntPathPipe implements PipeTransform<string, number> {
  constructor(private readonly message: string) {}

  transform(value: string): number {
    if (!/^-?\d{1,15}$/.test(value)) {
      throw new BadRequestException(this.message);
    }
    return Number(value);
  }
}
