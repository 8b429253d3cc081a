import { applyMigrations } from './applyMigrations'
import type { Database } from './database'

/** Schema changes in order; each runs once, in a transaction, recorded in schema_migrations. */
export const migrations: readonly string[] = [
  `create table names (
     name text primary key,
     address text not null,
     coin_type integer not null,
     attributes jsonb not null default '{}',
     registered_at timestamptz not null default now()
   );
   create index names_address on names (lower(address));
   create table sessions (
     id text primary key,
     project_id text not null,
     caip_address text not null,
     message text not null,
     signature text not null,
     expires_at timestamptz,
     revoked boolean not null default false,
     created_at timestamptz not null default now()
   );
   create table analytics_events (
     id bigserial primary key,
     project_id text not null,
     event_id text not null,
     origin text,
     url text not null,
     domain text not null,
     timestamp bigint not null,
     props jsonb not null,
     received_at timestamptz not null default now()
   );
   create table indexed_blocks (
     chain_id integer not null,
     number bigint not null,
     hash text not null,
     parent_hash text not null,
     timestamp bigint not null,
     primary key (chain_id, number)
   );
   create table transfers (
     id bigserial primary key,
     chain_id integer not null,
     block_number bigint not null,
     tx_hash text not null,
     log_index integer not null,
     from_address text not null,
     to_address text not null,
     token text,
     value numeric(78, 0) not null,
     status text not null,
     timestamp bigint not null,
     unique (chain_id, tx_hash, log_index)
   );
   create index transfers_from on transfers (lower(from_address), block_number desc, id desc);
   create index transfers_to on transfers (lower(to_address), block_number desc, id desc);`,
  // Sign-in hardening: every session expires, nonces are used once, the nonce key is shared by every instance.
  `update sessions set expires_at = created_at + interval '1 day' where expires_at is null;
   alter table sessions alter column expires_at set not null;
   create index sessions_expiry on sessions (expires_at);
   create index sessions_owner on sessions (project_id, caip_address, created_at desc);
   create table siwx_used_nonces (
     nonce text primary key,
     project_id text not null,
     expires_at timestamptz not null
   );
   create index siwx_used_nonces_expiry on siwx_used_nonces (expires_at);
   create table service_secrets (
     name text primary key,
     value text not null
   );`,
  // Analytics are pruned per project, oldest first.
  `create index analytics_events_project on analytics_events (project_id, id desc)`,
  // History tells the truth: the genesis each chain was indexed from (another one means the chain was reset), seeded
  // from the block 0 an earlier indexer stored; rollbacks and pruning find a chain's rows by block.
  `create table indexed_chains (
     chain_id integer primary key,
     genesis_hash text not null
   );
   insert into indexed_chains (chain_id, genesis_hash) select chain_id, hash from indexed_blocks where number = 0;
   create index transfers_chain_block on transfers (chain_id, block_number)`,
  // History: the chain is in the index after the sort key, so a page is one index range scan in order, with or without
  // a chain id, rows of other chains skipped in the index (never read from the table). An address's first registered
  // name is the first entry of names_first: no sort per lookup (a history page looks up a hundred).
  `create index transfers_from_chain on transfers (lower(from_address), block_number desc, id desc, chain_id);
   create index transfers_to_chain on transfers (lower(to_address), block_number desc, id desc, chain_id);
   drop index transfers_from;
   drop index transfers_to;
   create index names_first on names (lower(address), registered_at, name);
   drop index names_address`,
  // History reads its page from the index alone: the walks' indexes carry every column a page shows (INCLUDE), so a
  // page is a few index pages instead of one table page per transfer (50 random reads, most of a request's time with
  // 1,000,000 transfers). The table's pages must be marked all-visible for that: PostgreSQL's autovacuum does it, and
  // for PGlite, which has none, the data service vacuums after the indexers write (see createVacuumSchedule).
  `create index transfers_from_page on transfers (lower(from_address), block_number desc, id desc, chain_id)
     include (tx_hash, log_index, from_address, to_address, token, value, status, timestamp);
   create index transfers_to_page on transfers (lower(to_address), block_number desc, id desc, chain_id)
     include (tx_hash, log_index, from_address, to_address, token, value, status, timestamp);
   drop index transfers_from_chain;
   drop index transfers_to_chain`,
  // Addresses compare byte by byte: they are ASCII, and under the database's locale every lower() and every index
  // comparison went through the C library's locale functions (lower() alone about 250 ns a call on PostgreSQL, 470 on
  // PGlite, and a history page makes about 160). The indexes on them are rebuilt with the new collation.
  `alter table transfers alter column from_address type text collate "C", alter column to_address type text collate "C";
   alter table names alter column address type text collate "C"`,
  // On-ramp orders (SPEC §7 /v1/onramp/*): one row per hand-off to a provider's checkout, followed by the provider's
  // reports, each report counted once (its id per provider); history finds an address's purchases by destination.
  `create table onramp_orders (
     id text primary key,
     project_id text not null,
     provider text not null,
     provider_order_id text,
     partner_user_id text not null,
     destination text collate "C" not null,
     network text not null,
     asset text not null,
     payment_currency text not null,
     payment_method text not null,
     payment_total text not null,
     purchase_amount text not null,
     status text not null,
     tx_hash text,
     failure_reason text,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now()
   );
   create unique index onramp_orders_provider on onramp_orders (provider, provider_order_id);
   create index onramp_orders_destination on onramp_orders (lower(destination), created_at desc);
   create index onramp_orders_user on onramp_orders (project_id, partner_user_id, status);
   create table onramp_events (
     provider text not null,
     event_id text not null,
     received_at timestamptz not null default now(),
     primary key (provider, event_id)
   );
   create index onramp_events_age on onramp_events (received_at)`,
  // History marks the transfers that paid a purchase: completed orders found by their transaction.
  `create index onramp_orders_paid on onramp_orders (lower(tx_hash)) where status = 'completed'`,
  // The hosted RPC endpoint's requests per project, counted by every instance together (services/auth/rateLimits.ts).
  `create table rpc_rate_windows (
     key text not null,
     window_start bigint not null,
     window_end bigint not null,
     count integer not null,
     primary key (key, window_start)
   );
   create index rpc_rate_windows_end on rpc_rate_windows (window_end)`,
]

/** Brings the data service's tables up to date; safe to run from every instance at once (see applyMigrations). */
export const migrate = (db: Database) => applyMigrations(db, { versionsTable: 'schema_migrations', migrations })
