import 'reflect-metadata';
import { BadRequestException } from '@nestjs/common';
import { GoField } from './go-field';
import { decodeGoStruct, GoStruct, goStructSchema } from './go-struct';

@GoStruct('Flags', { failure: '', withCause: true })
class Flags {
  @GoField.bool()
  soft?: boolean;

  @GoField.strings()
  names?: string[];
}

/** The 400 a body is refused with (its exact text). */
const refused = (text: string) => new BadRequestException(text);

describe('GoField.bool and GoField.strings', () => {
  it('decode a bool and a []string, a null element being the zero string', async () => {
    const body = await decodeGoStruct({ soft: false, names: ['a', null] }, Flags);
    expect(body.soft).toBe(false);
    expect(body.names).toEqual(['a', '']);
    expect(goStructSchema(Flags).properties).toEqual({
      soft: { type: 'boolean' },
      names: { type: 'array', items: { type: 'string' } },
    });
  });

  it('refuse another JSON type in Go words, an element naming its own type', async () => {
    await expect(decodeGoStruct({ soft: 'yes' }, Flags)).rejects.toThrow(
      refused('json: cannot unmarshal string into Go struct field Flags.soft of type bool'),
    );
    await expect(decodeGoStruct({ names: {} }, Flags)).rejects.toThrow(
      refused('json: cannot unmarshal object into Go struct field Flags.names of type []string'),
    );
    await expect(decodeGoStruct({ names: ['a', 1] }, Flags)).rejects.toThrow(
      refused('json: cannot unmarshal number into Go struct field Flags.names of type string'),
    );
  });
});
