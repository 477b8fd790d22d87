import type { PendingImage } from './useImages.js';

/** Thumbnails of the images that will go with the answer or push, each with a remove button. */
export function ImageTray({ images, remove }: { images: PendingImage[]; remove(key: number): void }) {
  if (!images.length) return null;
  return (
    <ul className="image-tray" aria-label="attached images">
      {images.map((image) => (
        <li key={image.key}>
          <img src={image.preview} alt={image.name} />
          <button
            type="button"
            className="button ghost small"
            aria-label={`remove ${image.name}`}
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
