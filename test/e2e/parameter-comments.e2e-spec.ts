import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectSuccessAlert } from 'test/e2e/support/alerts';
import { parameterBody, type ParameterResponse } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

/** A parameter's `comment` (the original's `parameter.comment`), on every version. */
describe('parameter comments', () => {
  const { admin } = useApp();

  const body = parameterBody;
  const byName = async (name: string, version = '4.0'): Promise<ParameterResponse[]> =>
    responseOf<ParameterResponse[]>(
      await admin.at(version).get(`parameters?name=${encodeURIComponent(name)}`),
    );

  it.each(['3.0', '4.0', '5.0'])('is written, read back and filtered on %s', async (version) => {
    const comment = `tuned for the Ünïcode edge ${uniqueName('c')}`;
    const sent = body({ comment });
    const res = await admin.at(version).post('parameters', sent);
    expectSuccessAlert(res, 'param was created.');
    const created = responseOf<ParameterResponse>(res);
    expect(created).toMatchObject({ name: sent.name, comment });
    expect(await byName(sent.name, version)).toEqual([{ ...created, profiles: [] }]);
    const filtered = responseOf<ParameterResponse[]>(
      await admin.at(version).get(`parameters?comment=${encodeURIComponent(comment)}`),
    );
    expect(filtered.map((p) => p.id)).toEqual([created.id]);
  });

  it('reads as null when absent or null, and an update replaces it', async () => {
    const [absent, nulled] = responseOf<ParameterResponse[]>(
      await admin.post('parameters', [body(), body({ comment: null })]),
    );
    expect(absent.comment).toBeNull();
    expect(nulled.comment).toBeNull();

    const res = await admin.put(`parameters/${absent.id}`, {
      ...body({ name: absent.name }),
      comment: 'now',
    });
    expectSuccessAlert(res, 'param was updated.');
    expect(responseOf<ParameterResponse>(res).comment).toBe('now');
    expect((await byName(absent.name))[0].comment).toBe('now');

    // As the original's UPDATE sets every column: a body without it clears it.
    await admin.put(`parameters/${absent.id}`, body({ name: absent.name }));
    expect((await byName(absent.name))[0].comment).toBeNull();
  });

  it('refuses a comment that is not a string', async () => {
    expectError(await admin.post('parameters', body({ comment: 5 })), 400, "'comment' must be a string");
  });
});
