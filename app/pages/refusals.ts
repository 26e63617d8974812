import { SESSION_REFUSALS } from '../../adapters/systemRefusals';
import { readBack } from '../components/serverText';

/** Why the server refused a sign-in or a registration, in the console's language. */
export const sessionRefusal = readBack(SESSION_REFUSALS, 'login.refusals');
