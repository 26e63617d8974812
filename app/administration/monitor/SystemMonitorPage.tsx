/**
 * System monitor (spec 002 §2.17): this server's CPU and memory, event-loop delay, HTTP call rate and
 * latency, database pool and MQTT connection with its message rate, what the broker says of itself
 * (dropped and held messages) and how the device message intake keeps up, polled every two seconds.
 * Administrators only; the server refuses anyone else.
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Button, Chip, Typography } from '@mui/material';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import { EmptyState } from '../../components/EmptyState';
import { Card, Figure, Figures, Sparkline, bytes, useFigures } from './figures';

export const POLL_MS = 2000;

export function SystemMonitorPage() {
  const translate = useTranslate();
  const can = useCan('monitor:system');
  const { data, error, load } = useFigures('monitor.system');
  const [live, setLive] = useState(true);
  useEffect(() => {
    if (!can) return;
    void load();
    if (!live) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [can, live, load]);

  if (!can) return <EmptyState />;
  const ms = (v: number) => `${v} ms`;
  return (
    <Box data-testid="system-monitor" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
        <Chip size="small" color={live ? 'success' : 'default'} label={translate(live ? 'monitor.live' : 'monitor.paused')} data-testid="monitor-live" />
        {data && (
          <Typography variant="body2" color="text.secondary" data-testid="monitor-updated">
            {translate('monitor.updated', { time: new Date(data.at).toLocaleTimeString() })}
          </Typography>
        )}
        <Box sx={{ flex: 1 }} />
        <Button size="small" variant="outlined" startIcon={live ? <PauseIcon /> : <PlayArrowIcon />} onClick={() => setLive(!live)} data-testid="monitor-toggle">
          {translate(live ? 'monitor.pause' : 'monitor.resume')}
        </Button>
      </Box>
      {error && <Alert severity="error">{error || translate('monitor.failed')}</Alert>}
      {data && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <Card title={translate('monitor.process')} testId="monitor-process">
            <Figures>
              <Figure label={translate('monitor.processCpu')} value={`${data.process.processCpu}%`} testId="monitor-cpu" />
              <Figure label={translate('monitor.hostCpu')} value={`${data.process.cpu}%`} />
              <Figure label={translate('monitor.rss')} value={bytes(data.process.memory.rss)} testId="monitor-rss" />
              <Figure label={translate('monitor.heap')} value={`${bytes(data.process.memory.heapUsed)} / ${bytes(data.process.memory.heapTotal)}`} />
              <Figure label={translate('monitor.uptime')} value={translate('monitor.seconds', { n: data.process.uptime })} />
              <Figure label={translate('monitor.node')} value={data.process.node} />
            </Figures>
          </Card>
          <Card title={translate('monitor.eventLoop')} testId="monitor-loop">
            <Figures>
              <Figure label={translate('monitor.mean')} value={ms(data.eventLoop.meanMs)} testId="monitor-loop-mean" />
              <Figure label="p99" value={ms(data.eventLoop.p99Ms)} />
              <Figure label={translate('monitor.max')} value={ms(data.eventLoop.maxMs)} />
            </Figures>
          </Card>
          <Card title={translate('monitor.http')} testId="monitor-http" wide>
            <Figures>
              <Figure label={translate('monitor.rate')} value={data.http.perSecond} testId="monitor-rate" />
              <Figure label={translate('monitor.lastMinute')} value={data.http.lastMinute} testId="monitor-last-minute" />
              <Figure label={translate('monitor.errors')} value={data.http.errorsLastMinute} />
              <Figure label={translate('monitor.refused')} value={data.http.refusedLastMinute} />
              <Figure label={`${translate('monitor.latency')} p50`} value={ms(data.http.latencyMs.p50)} />
              <Figure label="p95" value={ms(data.http.latencyMs.p95)} />
              <Figure label="p99" value={ms(data.http.latencyMs.p99)} />
            </Figures>
            <Sparkline values={data.http.series} label={translate('monitor.lastMinute')} />
          </Card>
          <Card title={translate('monitor.database')} testId="monitor-db">
            <Figures>
              <Figure label={translate('monitor.kind')} value={data.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} />
              {data.database.pool ? (
                <>
                  <Figure label={translate('monitor.poolTotal')} value={`${data.database.pool.total} / ${data.database.pool.max}`} />
                  <Figure label={translate('monitor.poolIdle')} value={data.database.pool.idle} />
                  <Figure label={translate('monitor.poolWaiting')} value={data.database.pool.waiting} />
                </>
              ) : (
                <Figure label={translate('monitor.pool')} value={<Typography variant="body2">{translate('monitor.embedded')}</Typography>} />
              )}
              <Figure label={translate('monitor.statements')} value={data.database.statements} />
            </Figures>
          </Card>
          <Card title={translate('monitor.mqtt')} testId="monitor-mqtt">
            <Figures>
              <Figure label={translate('monitor.state')} value={<Chip size="small" color={data.mqtt.state === 'connected' ? 'success' : 'warning'} label={translate(`monitor.states.${data.mqtt.state}`, { _: data.mqtt.state })} />} testId="monitor-mqtt-state" />
              <Figure label={translate('monitor.up')} value={data.mqtt.upPerSecond} />
              <Figure label={translate('monitor.down')} value={data.mqtt.downPerSecond} />
            </Figures>
            <Sparkline values={data.mqtt.series} label={translate('monitor.upSeries')} color="#2e7d32" />
          </Card>
          <Card title={translate('monitor.intake')} testId="monitor-intake" wide>
            <Figures>
              <Figure label={translate('monitor.offered')} value={data.intake.offeredPerSecond} testId="monitor-offered" />
              <Figure label={translate('monitor.stored')} value={data.intake.storedPerSecond} />
              <Figure label={translate('monitor.waiting')} value={data.intake.waiting} />
              <Figure label={translate('monitor.lag')} value={<Chip size="small" color={data.intake.lagMs > data.intake.lagAlarmMs ? 'error' : 'default'} label={ms(data.intake.lagMs)} />} testId="monitor-lag" />
              <Figure label={translate('monitor.brokerClients')} value={data.broker.clients ?? translate('monitor.notReported')} />
              <Figure label={translate('monitor.brokerDropped')} value={data.broker.dropped === null ? translate('monitor.notReported') : <Chip size="small" color={data.broker.dropped > 0 ? 'error' : 'success'} label={data.broker.dropped} />} testId="monitor-dropped" />
              <Figure label={translate('monitor.brokerStored')} value={data.broker.stored ?? translate('monitor.notReported')} />
            </Figures>
            <Typography variant="body2" color="text.secondary">
              {translate('monitor.lagAlarm', { n: Math.round(data.intake.lagAlarmMs / 1000) })}
              {data.intake.ingesting ? ` · ${translate('monitor.ingesting')}` : ''}
            </Typography>
          </Card>
        </Box>
      )}
    </Box>
  );
}

export default SystemMonitorPage;
