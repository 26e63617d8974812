/**
 * The network the fault runs build: each replica in a network namespace of its own (`ip netns`), joined
 * to the machine by a veth pair — 10.88.<i>.1 on the machine's side, 10.88.<i>.2 in the namespace — and
 * reaching PostgreSQL and the broker only over that link. PostgreSQL listens on 127.0.0.1 alone, so its
 * port on the link's machine end is forwarded there by the kernel (DNAT, with route_localnet, and the
 * source rewritten to 127.0.0.1 so its host-based authentication lets it in): a connection is one TCP
 * connection end to end, and the database's keepalives see a replica cut off as they would in production.
 * The broker is reached through a TCP relay on the link (./delay.ts) that can hold every byte back.
 *
 * Faults are iptables rules in the namespace's own chain `chaos-fault` (dropping a service's packets both
 * ways, or a share of them with the `statistic` match — this kernel has no netem); the machine's NAT rules
 * live in the chains `chaos-db-in` and `chaos-db-src`. `teardown()` removes all of it, and so does
 * `sweep()`, for what a run that was killed left behind.
 */
import { execFileSync } from 'node:child_process';

/** The namespaces, links and chains are all named with this prefix, so a sweep finds them. */
const PREFIX = 'chaos';
export const DB_PORT = 5432;

const run = (command: string, args: string[], quiet = false) => {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if (quiet) return '';
    const e = error as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')}: ${e.stderr?.trim() || e.message}`);
  }
};
const ipt = (args: string[], quiet = false) => run('iptables', ['-w', ...args], quiet);

/** Why fault runs cannot run here, or null when they can (root, `ip netns` and iptables). */
export function unavailable(): string | null {
  if (process.getuid?.() !== 0) return 'the fault runs need root (network namespaces and iptables)';
  for (const [command, args] of [['ip', ['netns', 'list']], ['iptables', ['-w', '-t', 'nat', '-S', 'PREROUTING']]] as const) {
    try {
      execFileSync(command, [...args], { stdio: 'ignore' });
    } catch {
      return `the fault runs need \`${command} ${args.join(' ')}\` (apt-get install -y iproute2 iptables)`;
    }
  }
  return null;
}

export interface Link {
  /** 1, 2, …: the replica's number. */
  index: number;
  namespace: string;
  /** The machine's end (where PostgreSQL and the broker relay are reached) and the replica's. */
  hostAddress: string;
  replicaAddress: string;
  /** `ip netns exec <namespace>`: the command prefix that runs a process on this link. */
  wrap: string[];
}

export type Service = 'database' | 'broker';

export interface Network {
  links: Link[];
  /** Drops every packet between the replica and the service, both ways (no answer, no reset: a partition). */
  cut(link: Link, services: Service[]): void;
  /** Drops this share (0…1) of the packets between the replica and the services, both ways. */
  lose(link: Link, services: Service[], share: number): void;
  /** Removes the replica's faults. */
  heal(link: Link): void;
  teardown(): void;
}

/** Removes whatever earlier runs left: namespaces, links and the machine's chains of this prefix. */
export function sweep(): void {
  // The machine's ends first: a namespace's deletion takes its links with it only some time later.
  for (const name of run('ip', ['-o', 'link', 'show'], true).matchAll(new RegExp(`^\\d+: (${PREFIX}h\\d+)@`, 'gm'))) run('ip', ['link', 'del', name[1]], true);
  for (const line of run('ip', ['netns', 'list'], true).split('\n')) {
    const name = line.split(' ')[0];
    if (name.startsWith(`${PREFIX}-`)) run('ip', ['netns', 'del', name], true);
  }
  for (const [hook, chain] of [['PREROUTING', `${PREFIX}-db-in`], ['INPUT', `${PREFIX}-db-src`]]) {
    while (ipt(['-t', 'nat', '-S', hook], true).includes(`-j ${chain}`)) ipt(['-t', 'nat', '-D', hook, '-j', chain]);
    ipt(['-t', 'nat', '-F', chain], true);
    ipt(['-t', 'nat', '-X', chain], true);
  }
}

/** Builds `replicas` namespaces with their links; `brokerPort(link)` is the relay's port on each link. */
export function buildNetwork(replicas: number, brokerPort: (index: number) => number): Network {
  sweep();
  const links: Link[] = [];
  try {
    ipt(['-t', 'nat', '-N', `${PREFIX}-db-in`]);
    ipt(['-t', 'nat', '-I', 'PREROUTING', '-j', `${PREFIX}-db-in`]);
    ipt(['-t', 'nat', '-N', `${PREFIX}-db-src`]);
    ipt(['-t', 'nat', '-I', 'INPUT', '-j', `${PREFIX}-db-src`]);
    ipt(['-t', 'nat', '-A', `${PREFIX}-db-src`, '-s', '10.88.0.0/16', '-d', '127.0.0.1', '-p', 'tcp', '--dport', String(DB_PORT), '-j', 'SNAT', '--to-source', '127.0.0.1']);
    for (let index = 1; index <= replicas; index++) {
      const namespace = `${PREFIX}-r${index}`;
      const [outside, inside] = [`${PREFIX}h${index}`, `${PREFIX}n${index}`];
      const link: Link = { index, namespace, hostAddress: `10.88.${index}.1`, replicaAddress: `10.88.${index}.2`, wrap: ['ip', 'netns', 'exec', namespace] };
      run('ip', ['netns', 'add', namespace]);
      links.push(link);
      run('ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', namespace]);
      run('ip', ['addr', 'add', `${link.hostAddress}/24`, 'dev', outside]);
      run('ip', ['link', 'set', outside, 'up']);
      run('ip', ['-n', namespace, 'addr', 'add', `${link.replicaAddress}/24`, 'dev', inside]);
      run('ip', ['-n', namespace, 'link', 'set', inside, 'up']);
      run('ip', ['-n', namespace, 'link', 'set', 'lo', 'up']);
      run('sysctl', ['-qw', `net.ipv4.conf.${outside}.route_localnet=1`]);
      ipt(['-t', 'nat', '-A', `${PREFIX}-db-in`, '-i', outside, '-d', link.hostAddress, '-p', 'tcp', '--dport', String(DB_PORT), '-j', 'DNAT', '--to-destination', `127.0.0.1:${DB_PORT}`]);
      run('ip', ['netns', 'exec', namespace, 'iptables', '-w', '-N', `${PREFIX}-fault`]);
      for (const hook of ['INPUT', 'OUTPUT']) run('ip', ['netns', 'exec', namespace, 'iptables', '-w', '-I', hook, '-j', `${PREFIX}-fault`]);
    }
  } catch (error) {
    sweep();
    throw error;
  }

  const inNamespace = (link: Link, args: string[]) => run('ip', ['netns', 'exec', link.namespace, 'iptables', '-w', ...args]);
  const portOf = (link: Link, service: Service) => (service === 'database' ? DB_PORT : brokerPort(link.index));
  /** Both directions of the service's traffic on the link: to its port out, from its port in. */
  const rules = (link: Link, services: Service[], match: string[]) => {
    for (const service of services) {
      const port = String(portOf(link, service));
      inNamespace(link, ['-A', `${PREFIX}-fault`, '-d', link.hostAddress, '-p', 'tcp', '--dport', port, ...match, '-j', 'DROP']);
      inNamespace(link, ['-A', `${PREFIX}-fault`, '-s', link.hostAddress, '-p', 'tcp', '--sport', port, ...match, '-j', 'DROP']);
    }
  };
  return {
    links,
    cut: (link, services) => rules(link, services, []),
    lose: (link, services, share) => rules(link, services, ['-m', 'statistic', '--mode', 'random', '--probability', String(share)]),
    heal: (link) => void inNamespace(link, ['-F', `${PREFIX}-fault`]),
    teardown: sweep,
  };
}
