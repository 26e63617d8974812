import { useTranslate } from 'react-admin';
import { JurisdictionPicker, areaPath } from '../../components/JurisdictionPicker';
import type { FieldInputProps } from '../../components/FieldInput';

/**
 * A place's district, picked from the area tree (province → city → district) rather than typed: the
 * picked area's code goes to fCityCode and its name to fCityName (the server keeps the tree's name).
 */
export function DistrictInput({ field, record, onChange, setValue, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  const code = record?.fCityCode;
  return (
    <JurisdictionPicker
      kind="area"
      value={code ? areaPath(code as number) : []}
      onChange={(picked) => {
        setValue?.('fCityCode', picked ? String(picked.last.id) : '');
        onChange(picked ? picked.last.label : '');
      }}
      label={translate(field.label)}
      disabled={disabled}
      error={error}
      fullWidth
      testId="place-district"
    />
  );
}

export default DistrictInput;
