/** The declared user resource's list at the legacy address /sys-user (spec 002 screen 4). */
import { ResourceContextProvider } from 'react-admin';
import { resources } from '../generated/resources';
import { UserList } from './UserList';

const definition = resources.find((r) => r.config.name === 'user')!;

export function UserResourcePage() {
  return (
    <ResourceContextProvider value="user">
      <UserList config={definition.config} />
    </ResourceContextProvider>
  );
}

export default UserResourcePage;
