import 'reflect-metadata';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { BodyKeys, readBodyKeys } from './body-keys';
import { validateBody } from './versioned-body';

@BodyKeys({ foldCase: true })
class Folded {
  @IsOptional()
  @IsString({ message: 'must be a string' })
  hostName?: string;

  @IsOptional()
  @IsInt({ message: 'must be an integer' })
  typeId?: number;
}

class Old {
  @IsInt({ message: 'must be an integer' })
  cdnId!: number;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  name?: string;
}

@BodyKeys({ rename: { cdnID: 'cdnId' }, validatedAs: () => Old })
class Renamed {
  @IsInt({ message: 'must be an integer' })
  cdnID!: number;
}

describe('BodyKeys', () => {
  it('matches keys in any case (the exact name first, the last key winning), dropping the others', async () => {
    expect(readBodyKeys({ HOSTNAME: 'a', hostName: 'b', typeid: 1, other: 2 }, Folded).raw).toEqual({
      hostName: 'b',
      typeId: 1,
    });
    expect(readBodyKeys({ hostname: 'a', HostName: 'c' }, Folded).raw).toEqual({ hostName: 'c' });
    const body = await validateBody({ TypeID: 3 }, Folded);
    expect(body).toBeInstanceOf(Folded);
    expect(body.typeId).toBe(3);
    await expect(validateBody({ TYPEID: 'x' }, Folded)).rejects.toThrow("'typeId' must be an integer");
  });

  it('renames keys, drops the old names and validates as the class it names', async () => {
    expect(readBodyKeys({ cdnID: 1, cdnId: 2, name: 'n' }, Renamed)).toEqual({
      raw: { cdnId: 1, name: 'n' },
      type: Old,
    });
    const body = await validateBody({ cdnID: 4 }, Renamed);
    expect(body).toBeInstanceOf(Old);
    await expect(validateBody({ cdnId: 4 }, Renamed)).rejects.toThrow("'cdnId' must be an integer");
  });

  it('keeps a body that is not an object, and leaves other classes alone', () => {
    expect(readBodyKeys([1], Renamed)).toEqual({ raw: [1], type: Old });
    expect(readBodyKeys({ A: 1 }, Old)).toEqual({ raw: { A: 1 }, type: Old });
  });
});
