import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVaultData, readAesKeyFile } from './traffic-vault';

/** lib/go-util AESEncrypt: the nonce, then the ciphertext with the tag after it. */
function goSeal(plain: string, key: Buffer): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv(`aes-${key.length * 8}-gcm` as 'aes-128-gcm', key, nonce);
  return Buffer.concat([nonce, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
}

describe('Traffic Vault decryption', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdn-aes-'));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([16, 24, 32])('opens what the original sealed with a %i-byte key', (bytes) => {
    const key = randomBytes(bytes);
    const sealed = goSeal('{"key0":"abc"}', key);
    expect(openVaultData(sealed, key)?.toString('utf8')).toBe('{"key0":"abc"}');
    expect(openVaultData(sealed, randomBytes(bytes))).toBeUndefined();
    const tampered = Buffer.from(sealed);
    tampered[14] ^= 1;
    expect(openVaultData(tampered, key)).toBeUndefined();
    expect(openVaultData(sealed.subarray(0, 20), key)).toBeUndefined();
  });

  it('reads the key file as the original does: base64, white space around it ignored', () => {
    const key = randomBytes(32);
    expect(readAesKeyFile(file('a.key', `${key.toString('base64')}\n`))).toEqual(key);
    const short = randomBytes(16);
    expect(readAesKeyFile(file('b.key', `  ${short.toString('base64')}\r\n`))).toEqual(short);
  });

  it('refuses a missing file, a file that is not base64 and a key of another length, saying which', () => {
    expect(() => readAesKeyFile(join(dir, 'none.key'))).toThrow(
      `cannot read the Traffic Vault AES key file ${join(dir, 'none.key')}`,
    );
    expect(() => readAesKeyFile(file('c.key', 'not base64 at all!'))).toThrow('does not hold a base64 key');
    expect(() => readAesKeyFile(file('d.key', ''))).toThrow('does not hold a base64 key');
    expect(() => readAesKeyFile(file('e.key', randomBytes(20).toString('base64')))).toThrow(
      'is 20 bytes long: an AES key is 16, 24 or 32 bytes',
    );
  });
});
