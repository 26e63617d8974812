import { useState } from 'react';
import { Box, Typography } from '@mui/material';
import ImageNotSupportedOutlined from '@mui/icons-material/ImageNotSupportedOutlined';
import { useTranslate } from 'react-admin';
import { imageUrl } from './api';

/** A card's picture by its stored name; a missing or broken one shows 暂无照片 (under `testId`). */
export function CardPicture({ name, height, iconSize, testId }: { name: unknown; height: number; iconSize: number; testId: string }) {
  const translate = useTranslate();
  const [broken, setBroken] = useState(false);
  const src = imageUrl(typeof name === 'string' ? name : null);
  return (
    <Box sx={{ height, bgcolor: 'action.hover', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' }}>
      {src && !broken ? (
        <Box component="img" src={src} alt="" onError={() => setBroken(true)} sx={{ maxHeight: '100%', maxWidth: '100%', objectFit: 'contain' }} />
      ) : (
        <Box sx={{ color: 'text.disabled', textAlign: 'center' }} data-testid={testId}>
          <ImageNotSupportedOutlined sx={{ fontSize: iconSize }} />
          <Typography variant="body2">{translate('common.noImage')}</Typography>
        </Box>
      )}
    </Box>
  );
}

export default CardPicture;
