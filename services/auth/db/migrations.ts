import { applyMigrations } from '../../api/db/applyMigrations'
import type { Database } from '../../api/db/createDatabase'

/**
 * The auth service's schema changes in order, in the data service's database. Every table is named auth_… and the
 * versions are kept apart from the data service's (auth_schema_migrations), so each service's list grows on its own.
 * Times are epoch milliseconds (bigint), from the service's clock.
 */
export const authMigrations: readonly string[] = [
  `create table auth_users (
     id text primary key,
     email text unique,
     user_name text,
     created_at bigint not null
   );
   create table auth_identities (
     provider text not null,
     subject text not null,
     user_id text not null references auth_users (id) on delete cascade,
     email text,
     user_name text,
     created_at bigint not null,
     primary key (provider, subject)
   );
   create index auth_identities_user on auth_identities (user_id);
   create table auth_devices (
     user_id text not null references auth_users (id) on delete cascade,
     device_hash text not null,
     created_at bigint not null,
     last_used_at bigint not null,
     primary key (user_id, device_hash)
   );
   create table auth_email_flows (
     id text primary key,
     kind text not null,
     project_id text not null,
     email text not null,
     user_id text references auth_users (id) on delete cascade,
     device_hash text,
     step text not null,
     approve_hash text unique,
     code_hash text,
     attempts integer not null default 0,
     ip text not null,
     created_at bigint not null,
     expires_at bigint not null
   );
   create index auth_email_flows_expiry on auth_email_flows (expires_at);
   create index auth_email_flows_owner on auth_email_flows (email, device_hash);
   create table auth_email_sends (
     key text primary key,
     last_sent_at bigint not null
   );
   create table auth_login_flows (
     id text primary key,
     provider text not null,
     project_id text not null,
     origin text not null,
     state text not null unique,
     nonce text not null,
     code_verifier text,
     return_origin text,
     channel_token text,
     used boolean not null default false,
     created_at bigint not null,
     expires_at bigint not null
   );
   create index auth_login_flows_expiry on auth_login_flows (expires_at);
   create table auth_sessions (
     token_hash text primary key,
     user_id text not null references auth_users (id) on delete cascade,
     project_id text not null,
     origin text not null,
     auth_provider text not null,
     created_at bigint not null,
     expires_at bigint not null
   );
   create index auth_sessions_user on auth_sessions (user_id, created_at desc);
   create index auth_sessions_expiry on auth_sessions (expires_at);
   create table auth_shares (
     user_id text primary key references auth_users (id) on delete cascade,
     share text not null,
     created_at bigint not null
   );
   create table auth_rate_windows (
     key text not null,
     window_start bigint not null,
     window_end bigint not null,
     count integer not null,
     primary key (key, window_start)
   );
   create index auth_rate_windows_end on auth_rate_windows (window_end);
   create table auth_secrets (
     name text primary key,
     value text not null
   )`,
]

/** Brings the auth tables up to date; safe to run from every instance at once (see applyMigrations). */
export const migrateAuth = (db: Database) => applyMigrations(db, { versionsTable: 'auth_schema_migrations', migrations: authMigrations })
