/** The part of autocannon's Node API the load bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram { average: number; p50: number; p99: number; max: number }
  interface Result { requests: Histogram; latency: Histogram; errors: number; timeouts: number; non2xx: number }
  interface Options { url: string; method?: string; connections?: number; duration?: number; timeout?: number; headers?: Record<string, string>; body?: string }
  export default function autocannon(options: Options): Promise<Result>;
}
