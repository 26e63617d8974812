/** Language menu: zh-CN 简体中文, zh-TW 繁體中文, en-US English; the choice outlives the session. */
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Button, IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { LOCALES } from '../../adapters/i18nProvider';

export function LanguageSwitch({ compact = false, color }: { compact?: boolean; color?: string }) {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = LOCALES.find((l) => l.locale === locale) ?? LOCALES[0];
  const label = translate('shell.language');
  return (
    <>
      {compact ? (
        <Tooltip title={label}>
          <IconButton
            data-testid="language-switch"
            aria-label={label}
            aria-haspopup="menu"
            onClick={(e) => setAnchor(e.currentTarget)}
            sx={{ color }}
          >
            <TranslateIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : (
        <Button
          data-testid="language-switch"
          aria-label={label}
          aria-haspopup="menu"
          startIcon={<TranslateIcon fontSize="small" />}
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{ color: color ?? 'text.secondary' }}
        >
          {current.name}
        </Button>
      )}
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {LOCALES.map((l) => (
          <MenuItem
            key={l.locale}
            selected={l.locale === current.locale}
            data-testid={`language-option-${l.locale}`}
            lang={l.locale}
            onClick={() => {
              setAnchor(null);
              setLocale(l.locale);
            }}
          >
            {l.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
