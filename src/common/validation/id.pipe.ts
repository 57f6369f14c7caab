import { BadRequestException, Injectable, Optional, type PipeTransform } from '@nestjs/common';
import { INT32, parseIntText } from 'src/common/validation/integers';

/**
 * An integer path parameter, refused with `message`: the original words a bad one differently by
 * handler family (and the steering-target routes even by method), so the text is the caller's.
 * Ids are 32-bit `integer` columns: a number beyond them is refused as not an id at all.
 */
export class IntPipe implements PipeTransform<string, number> {
  constructor(
    private readonly message: string,
    private readonly allowNegative = true,
  ) {}

  transform(value: string): number {
    const id = parseIntText(value, this.allowNegative ? INT32 : { min: 0, max: INT32.max });
    if (id === undefined) {
      throw new BadRequestException(this.message);
    }
    return id;
  }
}

/** A key of the generic CRUD handlers: `failed to parse key: <name>`. */
@Injectable()
export class KeyIdPipe extends IntPipe {
  constructor(@Optional() name: string = 'id') {
    super(`failed to parse key: ${name}`, false);
  }
}

/** A parameter of the hand-written handlers: `getting integer parameters: parameter '<name>' not an integer`. */
@Injectable()
export class IntParamPipe extends IntPipe {
  constructor(@Optional() name: string = 'id') {
    super(`getting integer parameters: parameter '${name}' not an integer`);
  }
}
