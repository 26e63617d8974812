import { useCan } from '../../auth/useCan';
import { SchemaList } from '../../components/SchemaList';
import { SheetImport } from '../../components/SheetImport';
import type { ResourceConfig } from '../../resources/types';

/**
 * The people watch-list (spec 001 §2.6): the generic list with the state switch, masked ID numbers and
 * photos, plus template and import; names open the holographic profile for holders of hologram:sch (the
 * resource's `links`).
 */
export function ControlPersonList({ config }: { config: ResourceConfig }) {
  const canAdd = useCan('controlPerson:add');
  return (
    <SchemaList
      config={config}
      toolbar={canAdd ? <SheetImport ns="controlPerson" template={{ call: 'sheet.watchTemplate', fileName: 'controlPerson.xlsx', public: true }} importCall="sheet.watchImport" testId="control-person" /> : undefined}
    />
  );
}

export default ControlPersonList;
