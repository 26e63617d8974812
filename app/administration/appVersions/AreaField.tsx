import { useMemo } from 'react';
import { useCallQuery } from '../../components/calls';
import { OptionSelect, type FieldInputProps } from '../../components/FieldInput';
import type { Option } from '../../components/lookups';
import type { CallTreeNode } from '../../../adapters/dataProvider';

/** An area of the area tree: its number `id`, its name `title`, the areas under it. */
type AreaNode = CallTreeNode<'area.treeList'>;

/** Every area as one option labelled with its path ("广东省 / 广州市 / 天河区"); the value is the area's number. */
function flatten(nodes: AreaNode[], prefix = ''): Option[] {
  return nodes.flatMap((n) => {
    const label = prefix ? `${prefix} / ${n.title}` : n.title;
    return [{ value: n.id, label }, ...flatten(n.children ?? [], label)];
  });
}

/**
 * The version's area: the last level picked (spec 001 §2.9). A plain select over the area tree, kept behind
 * this component so a cascading jurisdiction picker can replace it without touching the form.
 */
export function AreaField(props: FieldInputProps) {
  const { data } = useCallQuery('area.treeList', {});
  const options = useMemo(() => flatten(Array.isArray(data) ? data : []), [data]);
  return <OptionSelect {...props} options={options} />;
}

export default AreaField;
