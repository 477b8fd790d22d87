import { useState, type ClipboardEvent, type DragEvent } from 'react';
import { IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES, type ImageUpload } from '../../../bridge/protocol/index.js';
import { t } from '../i18n/index.js';

/** An image waiting to go with an answer or a push: the upload, and a preview URL for the thumbnail. */
export interface PendingImage extends ImageUpload {
  key: number;
  name: string;
  preview: string;
}

let keys = 0;

function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

const accepted = (type: string): type is ImageUpload['mimeType'] => (IMAGE_TYPES as readonly string[]).includes(type);

/**
 * Images pasted or dropped into a card or the composer (screenshots are how people explain UI problems). They stay
 * in memory only (not in the draft's sessionStorage) and go with the next answer or push; a file that is not a
 * PNG, JPEG, GIF or WebP, or is too big, is refused with a sentence saying so.
 */
export function useImages(onProblem: (problem: string) => void) {
  const [images, setImages] = useState<PendingImage[]>([]);

  const add = async (files: File[]) => {
    for (const file of files.filter((f) => f.type.startsWith('image/'))) {
      const words = t().images;
      const name = file.name || words.pasted;
      if (!accepted(file.type)) {
        onProblem(words.wrongType(name, file.type));
        continue;
      }
      if (file.size > MAX_IMAGE_BYTES) {
        onProblem(words.tooBig(name, Math.round(file.size / 1024), MAX_IMAGE_BYTES / 1024));
        continue;
      }
      const mimeType = file.type;
      const data = await readAsBase64(file);
      setImages((current) => {
        if (current.length >= MAX_IMAGES) {
          onProblem(t().images.tooMany(MAX_IMAGES));
          return current;
        }
        return [...current, { key: ++keys, name, mimeType, data, preview: `data:${mimeType};base64,${data}` }];
      });
    }
  };

  return {
    images,
    uploads: (): ImageUpload[] => images.map(({ mimeType, data }) => ({ mimeType, data })),
    remove: (key: number) => setImages((current) => current.filter((i) => i.key !== key)),
    clear: () => setImages([]),
    onPaste: (event: ClipboardEvent) => {
      const files = Array.from(event.clipboardData.files);
      if (!files.some((f) => f.type.startsWith('image/'))) return;
      event.preventDefault();
      void add(files);
    },
    onDragOver: (event: DragEvent) => {
      if (Array.from(event.dataTransfer.items).some((i) => i.kind === 'file')) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      const files = Array.from(event.dataTransfer.files);
      if (!files.length) return;
      event.preventDefault();
      void add(files);
    },
  };
}
