import { AspectRatio, Box } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export type CameraEmbed = { readonly kind: 'iframe' | 'hls'; readonly src: string };

const HLS_MIME = 'application/vnd.apple.mpegurl';
/** The camera iframe's sandbox: scripts and its own origin (players need both), presentation (casting). */
const CAMERA_SANDBOX = 'allow-scripts allow-same-origin allow-presentation';

/** Plays an HLS playlist in `video`: natively where the browser can (Safari), else with hls.js (loaded only now). */
function attachHls(video: HTMLVideoElement, src: string): () => void {
  if (video.canPlayType(HLS_MIME)) {
    video.src = src;
    return () => {
      video.removeAttribute('src');
      video.load();
    };
  }
  let destroy: (() => void) | null = null;
  let cancelled = false;
  void import('hls.js').then(({ default: Hls }) => {
    if (cancelled || !Hls.isSupported()) return;
    const hls = new Hls({ lowLatencyMode: true });
    hls.loadSource(src);
    hls.attachMedia(video);
    destroy = () => hls.destroy();
  });
  return () => {
    cancelled = true;
    destroy?.();
  };
}

/** A camera of the research, 16:9 (docs/behaviour.md §2): an embedded player (iframe, autoplay) or an HLS stream. */
export function CameraView({ embed }: { embed: CameraEmbed }) {
  const { t } = useTranslation('live');
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (embed.kind !== 'hls' || !video.current) return undefined;
    return attachHls(video.current, embed.src);
  }, [embed.kind, embed.src]);

  return (
    <AspectRatio ratio={16 / 9} w="100%" data-testid="camera-view" data-kind={embed.kind}>
      <Box style={{ borderRadius: 8, overflow: 'hidden', background: '#000' }}>
        {embed.kind === 'iframe' ? (
          <iframe
            key={embed.src}
            src={embed.src}
            title={t('view.cameraTitle')}
            allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            // What an embedded player (YouTube, a camera's page) needs to run, and no more: no
            // navigating this page away, no forms, no pop-ups. No referrer: a client's code is in
            // this page's URL.
            sandbox={CAMERA_SANDBOX}
            referrerPolicy="no-referrer"
            style={{ border: 0, width: '100%', height: '100%' }}
          />
        ) : (
          <video
            ref={video}
            title={t('view.cameraTitle')}
            aria-label={t('view.cameraTitle')}
            autoPlay
            muted
            playsInline
            controls
            style={{ width: '100%', height: '100%', background: '#000' }}
          />
        )}
      </Box>
    </AspectRatio>
  );
}
