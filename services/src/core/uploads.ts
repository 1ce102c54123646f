import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { isStorableText } from '../contracts/fields';
import { RuleViolation } from './errors';

/**
 * Image uploads (API.md §1): multipart, at most 500,000 bytes, and a JPEG, PNG or WebP by its
 * content, whatever the client claimed. Files are stored under UPLOAD_DIR and served at /storage/.
 */
export const MAX_IMAGE_BYTES = 500_000;
export const uploadMessages = {
  tooLarge: 'Image size should not exceed 500kB',
  notAnImage: 'The file must be a JPEG, PNG or WebP image.',
  required: 'Please choose an image to upload.',
} as const;

const imageTypes = new Map([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);

export type UploadedFile = { field: string; filename: string; buffer: Buffer; truncated: boolean };
export type MultipartForm = { fields: Record<string, string>; files: Record<string, UploadedFile> };

/**
 * Reads a whole multipart request: text fields and files (each file buffered, cut off one byte past
 * the limit so an oversize file is recognised without reading all of it). A JSON request gives its
 * body as the fields, so one handler serves both.
 */
export async function readForm(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) if (value !== undefined && value !== null) fields[key] = typeof value === 'string' ? value : JSON.stringify(value);
    return { fields, files: {} };
  }
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  // throwFileSizeLimit off: an oversize file is marked truncated (answered below with the seeds'
  // 422 message) instead of failing the whole request with multipart's own 413.
  const options = { limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 5, fields: 100 }, throwFileSizeLimit: false } as Parameters<FastifyRequest['parts']>[0];
  try {
    await readParts(request, options, fields, files);
  } catch (error) {
    // busboy's own errors (a truncated body, a malformed part header) carry no status: the
    // request is malformed, not our failure. Fastify's (limits, content type) carry theirs.
    if ((error as { statusCode?: number }).statusCode || error instanceof RuleViolation) throw error;
    throw new RuleViolation('The upload was cut off or malformed. Please try again.');
  }
  return { fields, files };
}

async function readParts(request: FastifyRequest, options: Parameters<FastifyRequest['parts']>[0], fields: Record<string, string>, files: Record<string, UploadedFile>): Promise<void> {
  for await (const part of request.parts(options)) {
    if (part.type === 'file') {
      const file = part as MultipartFile;
      const buffer = await file.toBuffer().catch((error: { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') return null;
        throw error;
      });
      if (buffer === null) {
        files[file.fieldname] = { field: file.fieldname, filename: file.filename, buffer: Buffer.alloc(0), truncated: true };
      } else if (buffer.length > 0) {
        files[file.fieldname] = { field: file.fieldname, filename: file.filename, buffer, truncated: file.file.truncated };
      }
    } else {
      const value = (part as MultipartValue).value;
      const text = typeof value === 'string' ? value : String(value);
      if (!isStorableText(part.fieldname) || !isStorableText(text)) throw new RuleViolation(`The ${isStorableText(part.fieldname) ? part.fieldname : 'form'} contains characters that are not allowed.`, part.fieldname);
      fields[part.fieldname] = text;
    }
  }
}

/** Checks an image by size and content; answers the seeds' message for a file over 500 kB. */
export async function checkImage(file: UploadedFile | undefined, field: string): Promise<{ buffer: Buffer; extension: string; mime: string }> {
  if (!file) throw new RuleViolation(uploadMessages.required, field);
  if (file.truncated || file.buffer.length > MAX_IMAGE_BYTES) throw new RuleViolation(uploadMessages.tooLarge, field);
  const detected = await fileTypeFromBuffer(file.buffer);
  const extension = detected ? imageTypes.get(detected.mime) : undefined;
  if (!detected || !extension) throw new RuleViolation(uploadMessages.notAnImage, field);
  return { buffer: await reencode(file.buffer, detected.mime, field), extension, mime: detected.mime };
}

/**
 * Decodes the image and encodes it afresh in its own format, turned upright: whatever rode along
 * (HTML or script appended after the image data, a polyglot's second reading, EXIF with the
 * phone's location) is not in the stored file. An image that does not decode is not an image.
 */
async function reencode(buffer: Buffer, mime: string, field: string): Promise<Buffer> {
  try {
    // 40 megapixels: a phone photo fits; a decompression bomb does not.
    const image = sharp(buffer, { limitInputPixels: 40_000_000, failOn: 'error' }).rotate();
    const encoded = mime === 'image/png' ? image.png() : mime === 'image/webp' ? image.webp({ quality: 85 }) : image.jpeg({ quality: 85, mozjpeg: true });
    return await encoded.toBuffer();
  } catch {
    throw new RuleViolation(uploadMessages.notAnImage, field);
  }
}

/**
 * Checks and stores an image under `<uploadDir>/<folder>/`, returning the path the API shows
 * (`storage/<folder>/<file>`), which the api serves at `/storage/...`.
 */
export async function storeImage(uploadDir: string, folder: string, file: UploadedFile | undefined, field: string): Promise<string> {
  const image = await checkImage(file, field);
  const name = `${randomUUID()}.${image.extension}`;
  const directory = path.resolve(uploadDir, folder);
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, name), image.buffer);
  return `storage/${folder}/${name}`;
}

/**
 * Multipart routes have no body schema (the parts are read in the handler), so their text fields
 * are checked here: the first problem answers 422 under its field, like a body schema would.
 */
export function parseFormFields<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new RuleViolation(issue?.message ?? 'The given data was invalid.', issue?.path.join('.') || undefined);
}
