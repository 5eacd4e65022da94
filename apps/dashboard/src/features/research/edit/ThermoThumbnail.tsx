import { Box, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { thermoCoordsQueryOptions, thermoImageQueryOptions } from '../../../api/research';
import type { ThermoConfig } from '../../../api/research-types';
import { markerShapes, strokeFor } from '../../../lib/thumbnail';

/** An object URL for a blob, revoked when the blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return undefined;
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return blob ? url : null;
}

/**
 * The config's photo with its markers drawn (an SVG overlay in the photo's own pixel coordinates,
 * scaled with the image: enough for a thumbnail; the live view draws on a canvas).
 */
export function ThermoThumbnail({ config, width = 220 }: { config: ThermoConfig; width?: number }) {
  const { t } = useTranslation();
  const image = useQuery(thermoImageQueryOptions(config.id));
  const coords = useQuery(thermoCoordsQueryOptions(config.id));
  const src = useObjectUrl(image.data);
  const shapes = useMemo(() => markerShapes(coords.data ?? []), [coords.data]);
  const w = config.image_width > 0 ? config.image_width : 4;
  const h = config.image_height > 0 ? config.image_height : 3;
  const stroke = strokeFor(w, width);

  if (!src) return <Skeleton w={width} maw="100%" style={{ aspectRatio: `${w} / ${h}` }} radius="md" />;

  return (
    <Box w={width} maw="100%" style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden', lineHeight: 0 }}>
      <svg
        viewBox={`0 0 ${w} ${h}`}
        width="100%"
        role="img"
        aria-label={t('research.thumbnailAlt', { name: config.image_filename })}
        data-testid="thermo-thumbnail"
        data-markers={shapes.length}
      >
        <image href={src} x={0} y={0} width={w} height={h} preserveAspectRatio="none" />
        {shapes.map((shape) => (
          <g key={shape.key}>
            <rect
              x={shape.label.x}
              y={shape.label.y}
              width={shape.label.width}
              height={shape.label.height}
              fill="rgba(255,255,255,0.85)"
              stroke={shape.color}
              strokeWidth={stroke}
            />
            <text
              x={shape.label.x + shape.label.width / 2}
              y={shape.label.y + shape.label.height / 2}
              fontSize={shape.label.fontSize}
              textAnchor="middle"
              dominantBaseline="central"
              fill="#111"
              fontFamily="system-ui, sans-serif"
            >
              {shape.label.text}
            </text>
            <rect
              x={shape.marker.x}
              y={shape.marker.y}
              width={shape.marker.size}
              height={shape.marker.size}
              fill={shape.color}
              stroke="#fff"
              strokeWidth={stroke}
            />
          </g>
        ))}
      </svg>
    </Box>
  );
}
