import * as z from 'zod';

/** Images the human pastes or drops into an answer or a push (README "The window"). */

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const ImageType = z.enum(IMAGE_TYPES);
export type ImageType = z.infer<typeof ImageType>;

/** One image is at most this big (decoded); a message carries at most MAX_IMAGES of them. */
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024;
export const MAX_IMAGES = 4;

/** An image as the window uploads it, base64 in the JSON body. */
export const ImageUpload = z.object({
  mimeType: ImageType,
  data: z
    .string()
    .min(1)
    .max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4, `an image may be at most ${MAX_IMAGE_BYTES} bytes`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'data must be base64 without a data: prefix'),
});
export type ImageUpload = z.infer<typeof ImageUpload>;

/** An image kept in the data dir (`<dataDir>/aiti-bridge/images/<id>`): the journal holds this, never the bytes. */
export const ImageRef = z.object({
  id: z.string().regex(/^img-[0-9a-f]{16}$/, 'an image id is img- and 16 hex digits'),
  mimeType: ImageType,
  bytes: z.number().int().positive(),
});
export type ImageRef = z.infer<typeof ImageRef>;

export const ImageUploads = z.array(ImageUpload).max(MAX_IMAGES, `at most ${MAX_IMAGES} images`);

/** What MAX_IMAGES images add to a JSON body at most (base64), on top of the usual body limit. */
export const MAX_IMAGES_BODY_BYTES = MAX_IMAGES * Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
