import { useState } from 'react';

/** A set the user changes one item at a time (the open rows of a tree, the ticked rows of a list): `toggle` adds an item or takes it out. */
export function useToggleSet<T>(initial: () => Set<T> = () => new Set()) {
  const [items, setItems] = useState<Set<T>>(initial);
  const toggle = (item: T) =>
    setItems((s) => {
      const next = new Set(s);
      if (next.has(item)) next.delete(item);
      else next.add(item);
      return next;
    });
  return [items, toggle, setItems] as const;
}
