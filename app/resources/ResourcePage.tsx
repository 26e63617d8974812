/**
 * A declared resource's list page, loaded when first opened: the resource file names the list component,
 * the generated config feeds it. Every resource route and the legacy addresses of the menus (/sys-user,
 * /sys-role) render it.
 */
import { ResourceContextProvider } from 'react-admin';
import { resources } from '../generated/resources';

export function ResourcePage({ name }: { name: string }) {
  const definition = resources.find((r) => r.config.name === name)!;
  const List = definition.list;
  return (
    <ResourceContextProvider value={name}>
      <List config={definition.config} />
    </ResourceContextProvider>
  );
}

export default ResourcePage;
