import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useTranslate } from 'react-admin';

/** The add button of a list or a tab: contained, with the add icon, worded 新增 unless told otherwise. */
export function AddButton({ onClick, testId, label, size }: { onClick: () => void; testId: string; label?: string; size?: 'small' | 'medium' }) {
  const translate = useTranslate();
  return (
    <Button variant="contained" size={size} startIcon={<AddIcon />} onClick={onClick} data-testid={testId}>
      {label ?? translate('common.add')}
    </Button>
  );
}

export default AddButton;
