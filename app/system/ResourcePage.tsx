/**
 * A declared resource's list at a legacy address of the menus (/sys-user, /sys-role, /sys-menu): the
 * resource file names the list component, the generated config feeds it.
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
