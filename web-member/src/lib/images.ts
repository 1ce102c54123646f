/** Receipts and profile photos: at most 500 kB (seed 000 §5, §9). */
export const MAX_IMAGE_KB = 500;
export const IMAGE_TOO_LARGE = 'Image size should not exceed 500kB';
export const IMAGE_REQUIRED = 'Please choose an image to upload.';
export const NOT_AN_IMAGE = 'The file must be a JPEG, PNG or WebP image.';
export const ACCEPTED_IMAGE_TYPES = 'image/jpeg,image/png,image/webp';

/** The seeds' check: kilobytes as file.size / 1000. */
export function imageTooLarge(file: File): boolean {
  return file.size / 1000 > MAX_IMAGE_KB;
}

/** What is wrong with a chosen image, or null when it may be sent (the server checks the content again). */
export function imageProblem(file: File | null | undefined): string | null {
  if (!file) return IMAGE_REQUIRED;
  if (file.type && !file.type.startsWith('image/')) return NOT_AN_IMAGE;
  if (imageTooLarge(file)) return IMAGE_TOO_LARGE;
  return null;
}

/**
 * imageProblem, and then the file's content rather than its name: an .exe renamed .png is refused
 * when it is chosen, before a broken preview (the server reads the content again on upload).
 * file-type is loaded only when a file is chosen, so pages do not carry it.
 */
export async function imageContentProblem(file: File): Promise<string | null> {
  const problem = imageProblem(file);
  if (problem) return problem;
  const { fileTypeFromBlob } = await import('file-type/core');
  const detected = await fileTypeFromBlob(file).catch(() => undefined);
  return detected && ACCEPTED_IMAGE_TYPES.split(',').includes(detected.mime) ? null : NOT_AN_IMAGE;
}
