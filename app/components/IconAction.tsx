import { Button, IconButton, Tooltip } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import { useTranslate } from 'react-admin';

const KINDS = {
  edit: { icon: EditIcon, label: 'common.edit', color: 'primary' },
  delete: { icon: DeleteIcon, label: 'common.delete', color: 'error' },
} as const;

/** The row's edit or delete button of the tables: an icon with its name as a tooltip and accessible label. */
export function IconAction({ kind, onClick, testId }: { kind: keyof typeof KINDS; onClick: () => void; testId: string }) {
  const translate = useTranslate();
  const { icon: Icon, label, color } = KINDS[kind];
  return (
    <Tooltip title={translate(label)}>
      <IconButton size="small" color={color} onClick={onClick} aria-label={translate(label)} data-testid={testId}>
        <Icon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/** The row's view, edit or delete button in words (the cards, the lists whose buttons are words); delete in red. */
export function TextAction({ kind, onClick, testId }: { kind: 'view' | 'edit' | 'delete'; onClick: () => void; testId: string }) {
  const translate = useTranslate();
  return (
    <Button size="small" color={kind === 'delete' ? 'error' : 'primary'} onClick={onClick} data-testid={testId}>
      {translate(`common.${kind}`)}
    </Button>
  );
}
