import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, t=3, p=4): OWASP-level for interactive logins. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

// A real hash to verify against when the account does not exist, so a wrong username costs the
// same time as a wrong password and timing does not reveal which accounts exist.
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy-password-that-never-matches');
  return decoyHash;
}
