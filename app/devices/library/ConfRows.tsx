/**
 * Child rows of a library field inside its form: the switch options (when the function type is
 * 'switch'; open value 1 and close value 0 by default, spec 001 §5) and the hardware alarm bytes (when
 * the field alarms with type 2, hardware).
 */
import { Box, Button, IconButton, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import type { FormValues } from '../../components/validate';

type Item = Record<string, unknown>;

export const SWITCHES = 'productJsonConfSwitches';
export const HARDWARE_WARNS = 'productJsonHardwareWarns';
export const HARDWARE_WARN_TYPE = 2;

export const isSwitch = (values: FormValues) => values.fFunctionType === 'switch';
export const isHardwareWarn = (values: FormValues) => Number(values.fIsWarn) === 1 && Number(values.fWarnType) === HARDWARE_WARN_TYPE;

export const newSwitch = (name: unknown): Item => ({ fName: String(name ?? ''), fOpenValue: '1', fCloseValue: '0', fOpenReadValue: '', fCloseReadValue: '' });
const newWarn = (): Item => ({ fByteIndex: '', fName: '', fDes: '' });

/** The child tables' columns: the item's key, the label's text key. */
const SWITCH_COLUMNS = [
  ['fName', 'library.switchName'],
  ['fOpenValue', 'library.openValue'],
  ['fCloseValue', 'library.closeValue'],
  ['fOpenReadValue', 'library.openReadValue'],
  ['fCloseReadValue', 'library.closeReadValue'],
] as const;
const WARN_COLUMNS = [
  ['fByteIndex', 'library.byteIndex'],
  ['fName', 'library.warnName'],
  ['fDes', 'library.warnDes'],
] as const;

interface RowsProps {
  title: string;
  testId: string;
  columns: { key: string; label: string; width?: number }[];
  items: Item[];
  onChange: (items: Item[]) => void;
  onAdd: () => Item;
  addLabel: string;
  disabled: boolean;
}

/** An editable table of child rows: one text box per column, add and remove. */
function Rows({ title, testId, columns, items, onChange, onAdd, addLabel, disabled }: RowsProps) {
  const translate = useTranslate();
  const set = (index: number, key: string, value: string) => onChange(items.map((item, i) => (i === index ? { ...item, [key]: value } : item)));
  return (
    <Box sx={{ mt: 1, mb: 2 }} data-testid={testId}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 0.5 }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {!disabled && (
          <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...items, onAdd()])} data-testid={`${testId}-add`}>
            {addLabel}
          </Button>
        )}
      </Box>
      <Table size="small" sx={{ border: 1, borderColor: 'divider' }}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.key} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {c.label}
              </TableCell>
            ))}
            {!disabled && <TableCell sx={{ width: 48 }} />}
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((item, index) => (
            <TableRow key={index} data-testid={`${testId}-row`}>
              {columns.map((c) => (
                <TableCell key={c.key} sx={{ py: 0.5 }}>
                  <TextField
                    size="small"
                    variant="standard"
                    value={String(item[c.key] ?? '')}
                    onChange={(e) => set(index, c.key, e.target.value)}
                    disabled={disabled}
                    fullWidth
                    slotProps={{ htmlInput: { 'aria-label': c.label, 'data-testid': `${testId}-${c.key}-${index}`, maxLength: 100 } }}
                  />
                </TableCell>
              ))}
              {!disabled && (
                <TableCell sx={{ py: 0.5 }}>
                  <IconButton size="small" aria-label={translate('library.removeRow')} onClick={() => onChange(items.filter((_, i) => i !== index))}>
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

export function ConfRows({ values, setValue, disabled }: { values: FormValues; setValue: (source: string, value: unknown) => void; disabled: boolean }) {
  const translate = useTranslate();
  const list = (key: string) => (Array.isArray(values[key]) ? (values[key] as Item[]) : []);
  const switchOn = isSwitch(values);
  const switches = list(SWITCHES).length;
  // A field that becomes a switch starts with one option holding the defaults, as the server would store.
  useEffect(() => {
    if (switchOn && !switches && !disabled) setValue(SWITCHES, [newSwitch(values.fJsonName)]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [switchOn]);
  // Each child table, shown while its field asks for it.
  const sections = [
    { shown: switchOn, key: SWITCHES, title: 'library.switches', testId: 'conf-switches', addLabel: 'library.addSwitch', add: () => newSwitch(values.fJsonName), columns: SWITCH_COLUMNS },
    { shown: isHardwareWarn(values), key: HARDWARE_WARNS, title: 'library.hardwareWarns', testId: 'conf-warns', addLabel: 'library.addWarn', add: newWarn, columns: WARN_COLUMNS },
  ];
  return (
    <>
      {sections.map(
        (section) =>
          section.shown && (
            <Rows
              key={section.key}
              title={translate(section.title)}
              testId={section.testId}
              columns={section.columns.map(([key, label]) => ({ key, label: translate(label) }))}
              items={list(section.key)}
              onChange={(items) => setValue(section.key, items)}
              onAdd={section.add}
              addLabel={translate(section.addLabel)}
              disabled={disabled}
            />
          ),
      )}
    </>
  );
}
