// Every metric of the record in one table, apart from prom-client: the registry of sources reads it (for the
// README's check) without loading the code that keeps the metrics.
import type { MetricSpec } from '../exposition/catalog.js';

export const RECORD_METRICS = {
  rounds: {
    name: 'cityair_record_rounds_total',
    type: 'counter',
    labels: ['outcome'],
    help: 'Rounds of the record by outcome: complete, partial (some gaps could not be read from CityAir), failed (the store could not be queried or written).',
  },
  failures: {
    name: 'cityair_record_failures_total',
    type: 'counter',
    labels: ['reason'],
    help: 'Rounds of the record that met a failure, by where: query (the store’s query API), write (remote write), upstream (CityAir).',
  },
  gaps: {
    name: 'cityair_record_gaps',
    type: 'gauge',
    labels: [],
    help: 'Spans of the lookback where the store lacked rows, in the last round (before CityAir was asked).',
  },
  unfilled: {
    name: 'cityair_record_unfilled_gaps',
    type: 'gauge',
    labels: ['reason'],
    help: 'Gaps of the last round that CityAir did not fill: no_rows (it holds none there: a station offline), not_served (it would not give the span), failed (the requests failed).',
  },
  rowsMissing: {
    name: 'cityair_record_missing_rows_total',
    type: 'counter',
    labels: [],
    help: 'Rows CityAir holds that the store lacked, found by the record.',
  },
  rowsWritten: {
    name: 'cityair_record_written_rows_total',
    type: 'counter',
    labels: [],
    help: 'Rows the record wrote to the store and the store accepted.',
  },
  upstreamRequests: {
    name: 'cityair_record_upstream_requests_total',
    type: 'counter',
    labels: [],
    help: 'Readings requests the record sent to CityAir (the readings’ own are counted apart).',
  },
  storeQueries: {
    name: 'cityair_record_store_queries_total',
    type: 'counter',
    labels: [],
    help: 'Queries the record sent to the store’s query API.',
  },
  lastSuccess: {
    name: 'cityair_record_last_success_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: 'Unix time at which the last round of the record that queried and wrote the store without failure started.',
  },
  duration: {
    name: 'cityair_record_last_round_duration_seconds',
    type: 'gauge',
    labels: [],
    help: 'How long the last round of the record took.',
  },
} as const satisfies Record<string, MetricSpec>;
