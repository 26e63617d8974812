import { useEffect, useState } from 'react';
import { call } from '../../adapters/http';
import { OptionSelect, type FieldInputProps } from '../components/FieldInput';
import type { Option } from '../components/lookups';

interface AreaNode {
  id: number;
  title: string;
  children?: AreaNode[];
}

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
  const [options, setOptions] = useState<Option[]>([]);
  useEffect(() => {
    let alive = true;
    call<AreaNode[]>('/system/t-area-info/treeList', {})
      .then((envelope) => alive && setOptions(flatten(Array.isArray(envelope.data) ? envelope.data : [])))
      .catch(() => alive && setOptions([]));
    return () => {
      alive = false;
    };
  }, []);
  return <OptionSelect {...props} options={options} />;
}

export default AreaField;
