/**
 * Multipart bodies for `app.inject` (through `call(..., { body, headers })` of test/http.ts): text
 * fields and files, encoded by the platform's own FormData.
 */
export type TestFile = { filename: string; content: Buffer; type?: string };

export async function multipartBody(fields: Record<string, string | number>, files: Record<string, TestFile> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const [name, file] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(file.content)], { type: file.type ?? 'application/octet-stream' }), file.filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** A valid 1×1 PNG. */
export const tinyPng = (): Buffer =>
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A PNG padded to `bytes` bytes (the size check comes before the content check). */
export const pngOfSize = (bytes: number): Buffer => Buffer.concat([tinyPng(), Buffer.alloc(bytes - tinyPng().length)]);
