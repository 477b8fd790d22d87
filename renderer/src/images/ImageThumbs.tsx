import { useEffect, useState } from 'react';
import type { ImageRef } from '../../../bridge/protocol/index.js';
import type { Api } from '../api.js';
import { useT } from '../i18n/index.js';

/** Images are read once per window: an id names one file forever. */
const loaded = new Map<string, Promise<string>>();

function load(api: Api, id: string): Promise<string> {
  let url = loaded.get(id);
  if (!url) {
    url = api.image(id);
    // a failed read may succeed later (the bridge was restarting): do not keep the failure
    url.catch(() => loaded.delete(id));
    loaded.set(id, url);
  }
  return url;
}

function Thumb({ api, image, index }: { api: Api | undefined; image: ImageRef; index: number }) {
  const words = useT().history;
  const [url, setUrl] = useState<string>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!api) return;
    let live = true;
    load(api, image.id).then(
      (u) => live && setUrl(u),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [api, image.id]);
  const label = words.image(index + 1, Math.round(image.bytes / 1024));
  if (failed) return <span className="thumb missing">{words.imageGone(label)}</span>;
  return url ? <img className="thumb" src={url} alt={label} title={label} /> : <span className="thumb loading" />;
}

/** The images of a push or an answer, small, as History shows them. */
export function ImageThumbs({ api, images }: { api: Api | undefined; images: readonly ImageRef[] | undefined }) {
  const words = useT().history;
  if (!images?.length) return null;
  return (
    <span className="thumbs" aria-label={words.images(images.length)}>
      {images.map((image, i) => (
        <Thumb key={image.id} api={api} image={image} index={i} />
      ))}
    </span>
  );
}
