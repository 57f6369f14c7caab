import { BadRequestException, Injectable, Optional, type PipeTransform } from '@nestjs/common';

/**
 * Path ids. The original words a bad one differently by handler family: the generic CRUD handlers
 * say `failed to parse key: id`, the hand-written ones `getting integer parameters: …`.
 */
@Injectable()
export class KeyIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,15}$/.test(value)) {
      throw new BadRequestException('failed to parse key: id');
    }
    return Number(value);
  }
}

@Injectable()
export class IntParamPipe implements PipeTransform<string, number> {
  constructor(@Optional() private readonly name: string = 'id') {}

  transform(value: string): number {
    if (!/^-?\d{1,15}$/.test(value)) {
      throw new BadRequestException(`getting integer parameters: parameter '${this.name}' not an integer`);
    }
    return Number(value);
  }
}
