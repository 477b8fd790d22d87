import { useT } from '../i18n/index.js';
import type { PendingImage } from './useImages.js';

/** Thumbnails of the images that will go with the answer or push, each with a remove button. */
export function ImageTray({ images, remove }: { images: PendingImage[]; remove(key: number): void }) {
  const words = useT().images;
  if (!images.length) return null;
  return (
    <ul className="image-tray" aria-label={words.tray}>
      {images.map((image) => (
        <li key={image.key}>
          <img src={image.preview} alt={image.name} />
          <button
            type="button"
            className="button ghost small"
            aria-label={words.remove(image.name)}
            data-action
            onClick={() => remove(image.key)}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
