import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { OptionalBoolean, Pattern, RequiredInt, RequiredString } from 'src/common/validation/rules';
import { validationMessages } from 'src/common/validation/validation.options';

class Sample {
  @RequiredString(10)
  @Pattern(/^[a-z]+$/, 'invalid characters found')
  name!: string;

  @RequiredInt({ min: 0, max: 5 })
  count!: number;

  @OptionalBoolean()
  flag?: boolean;
}

const messages = (body: object): string[] => validationMessages(validateSync(plainToInstance(Sample, body)));

describe('validation messages (D7)', () => {
  it('accepts a valid body', () => {
    expect(messages({ name: 'abc', count: 3 })).toEqual([]);
  });

  it('names each field once, in declaration order', () => {
    expect(messages({})).toEqual(["'name' cannot be blank", "'count' is required"]);
  });

  it('prefers the type problem over rule problems', () => {
    expect(messages({ name: 5, count: 'x', flag: 'yes' })).toEqual([
      "'name' must be a string",
      "'count' must be an integer",
      "'flag' must be a boolean",
    ]);
  });

  it('reports rule problems in the original words', () => {
    expect(messages({ name: 'ABC', count: 9 })).toEqual([
      "'name' invalid characters found",
      "'count' must be no greater than 5",
    ]);
    expect(messages({ name: 'abcdefghijkl', count: -1 })).toEqual([
      expect.stringMatching(/^'name' /),
      "'count' must be no less than 0",
    ]);
  });
});
