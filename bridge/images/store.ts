import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_IMAGE_BYTES, type ImageRef, type ImageType, type ImageUpload } from '../protocol/index.js';
import { Invalid, Unavailable } from '../errors.js';
import { PRIVATE_DIR, PRIVATE_FILE, syncDir } from '../private-files.js';

/** The first bytes each accepted type starts with: a file is what it says it is, or it is refused. */
const MAGIC: Record<ImageType, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const IMAGE_ID = /^img-[0-9a-f]{16}$/;

/**
 * Images the human pasted or dropped into an answer or a push, one file each under `<appDir>/images/`, named by
 * a random id the bridge picks (never a name from the request). Messages and ask records keep the reference; the
 * bytes stay out of the JSONL journal.
 */
export class ImageStore {
  private readonly dir: string;

  constructor(appDir: string) {
    this.dir = join(appDir, 'images');
  }

  /**
   * At start, once the journal is replayed: removes the images no line refers to (kept for a push or an answer that
   * was then refused, or whose process was killed before its line was written). Returns how many went.
   */
  async collect(referenced: ReadonlySet<string>): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!IMAGE_ID.test(name) || referenced.has(name)) continue;
      await rm(join(this.dir, name), { force: true }).then(
        () => removed++,
        () => undefined,
      );
    }
    return removed;
  }

  /** Checks and writes one upload; an Invalid (a 400 at the edge) names what is wrong with it. */
  async save(upload: ImageUpload, index = 0): Promise<ImageRef> {
    const bytes = Buffer.from(upload.data, 'base64');
    if (!bytes.length || bytes.length > MAX_IMAGE_BYTES)
      throw new Invalid(`image ${index + 1} is ${bytes.length} bytes; it must be 1 to ${MAX_IMAGE_BYTES}`, 'images');
    if (!MAGIC[upload.mimeType](bytes))
      throw new Invalid(
        `image ${index + 1} is not a ${upload.mimeType} (its first bytes do not match); send PNG, JPEG, GIF or WebP`,
        'images',
      );
    const id = `img-${randomBytes(8).toString('hex')}`;
    await this.write(join(this.dir, id), bytes);
    return { id, mimeType: upload.mimeType, bytes: bytes.length };
  }

  /**
   * The message or answer that refers to an image is acknowledged once its journal line is fsynced, so the image
   * is on disk (fsynced, and its directory entry too) before that line is written. One that cannot be written
   * leaves no part behind and is an Unavailable (503): the push or the answer is refused as a whole. Every step
   * runs off the main thread: a slow disk holds this push, not the bridge.
   */
  private async write(file: string, bytes: Buffer): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR });
      const handle = await open(file, 'wx', PRIVATE_FILE);
      try {
        for (let offset = 0; offset < bytes.length;)
          offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
        await handle.sync();
      } finally {
        await handle.close();
      }
      // a new file's name is durable once its directory is synced
      await syncDir(this.dir);
    } catch (error) {
      await rm(file, { force: true }).catch(() => undefined);
      throw new Unavailable(
        `could not keep the image in ${this.dir}: ${(error as Error).message}; nothing was sent — free disk space or fix the data dir, then send it again`,
      );
    }
  }

  /** Keeps every upload; one that cannot be kept refuses them all, and the ones kept before it are removed. */
  async saveAll(uploads: readonly ImageUpload[] | undefined): Promise<ImageRef[]> {
    const kept: ImageRef[] = [];
    try {
      for (const [i, upload] of (uploads ?? []).entries()) kept.push(await this.save(upload, i));
    } catch (error) {
      await Promise.all(kept.map((ref) => rm(join(this.dir, ref.id), { force: true }).catch(() => undefined)));
      throw error;
    }
    return kept;
  }

  /** The image as MCP image content (base64), or undefined when its file is gone. */
  async read(ref: ImageRef): Promise<{ data: string; mimeType: string } | undefined> {
    try {
      return { data: (await readFile(join(this.dir, ref.id))).toString('base64'), mimeType: ref.mimeType };
    } catch {
      return undefined;
    }
  }

  /**
   * An image's bytes and type for the window to show, by its id alone. The id must be one this store makes
   * (`img-` and 16 hex digits): it is never a path. The type comes from the bytes, as when they were accepted.
   */
  async file(id: string): Promise<{ bytes: Buffer; mimeType: ImageType } | undefined> {
    if (!IMAGE_ID.test(id)) throw new Invalid(`"${id.slice(0, 40)}" is no image id (img- and 16 hex digits)`, 'id');
    let bytes: Buffer;
    try {
      bytes = await readFile(join(this.dir, id));
    } catch {
      return undefined;
    }
    const mimeType = (Object.keys(MAGIC) as ImageType[]).find((type) => MAGIC[type](bytes));
    return mimeType ? { bytes, mimeType } : undefined;
  }

  async readAll(refs: readonly ImageRef[] | undefined): Promise<Array<{ data: string; mimeType: string }>> {
    return (await Promise.all((refs ?? []).map((ref) => this.read(ref)))).flatMap((image) => image ?? []);
  }
}
