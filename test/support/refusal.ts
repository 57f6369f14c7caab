/**
 * What a body reader says of a body, for the unit specs of body classes: its refusal's message, or
 * 'accepted' when it reads the body.
 */
export async function refusalOf(read: () => unknown): Promise<string> {
  try {
    await read();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}
