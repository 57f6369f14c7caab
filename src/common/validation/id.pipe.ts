import { BadRequestException, Injectable, Optional, type PipeTransform } from '@nestjs/common';

/**
 * An integer path parameter, refused with `message`: the original words a bad one differently by
 * handler family (and the steering-target routes even by method), so the text is the caller's.
 */
export class IntPipe implements PipeTransform<string, number> {
  constructor(
    private readonly message: string,
    private readonly allowNegative = true,
  ) {}

  transform(value: string): number {
    if (!(this.allowNegative ? /^-?\d{1,15}$/ : /^\d{1,15}$/).test(value)) {
      throw new BadRequestException(this.message);
    }
    return Number(value);
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
