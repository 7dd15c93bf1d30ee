//! The SQLite and PostgreSQL migration trees are written twice, by hand: a fresh database of
//! each is migrated and the two schemas read back, so that a table, a column or an index
//! added to one tree only is named here rather than found by a query failing on one backend.

use std::collections::BTreeSet;

use sqlx::{Connection as _, PgConnection, SqliteConnection};
use swapboard_server::store::Store;

use swapboard_testkit::TestDb;

/// SQLite's own tables, which no migration writes.
const NOT_OURS: &str = "sqlite\\_%";

/// sqlx's record of the migrations run, kept on both backends but by sqlx, not by them.
const SQLX_TABLES: &str = "\\_sqlx%";

/// A column as a backend describes it: table, name, declared type, not null, and its place
/// in the primary key (0 when outside it).
type Column = (String, String, String, bool, i64);

/// An index as a backend describes it: table, name, unique, made by a constraint (`pk`,
/// `u`) or by `CREATE INDEX` (`c`), partial, and its columns (`<expr>` for an expression).
type Index = (String, String, bool, String, bool, String);

/// The family of a declared type, by SQLite's rules of affinity, with PostgreSQL's names
/// (`bigint`, `double precision`, `bytea`) read into the same families: the two backends
/// spell the same storage differently, and only a change of family is a difference.
fn family(declared: &str) -> String {
    let declared = declared.to_ascii_lowercase();
    let has = |part: &str| declared.contains(part);
    if has("int") {
        "integer".to_owned()
    } else if has("char") || has("clob") || has("text") {
        "text".to_owned()
    } else if has("blob") || has("bytea") {
        "blob".to_owned()
    } else if has("real") || has("floa") || has("doub") {
        "real".to_owned()
    } else {
        declared
    }
}

/// The schema as lines that read the same on both backends (`column games.id: text, not
/// null, key 1`). A primary key is compared through its columns, not its index: SQLite has
/// none for an `INTEGER PRIMARY KEY`, and a key's column is not null on either backend
/// whatever SQLite's table information says of a text key.
fn facts(columns: Vec<Column>, indexes: Vec<Index>) -> BTreeSet<String> {
    let mut facts = BTreeSet::new();
    for (table, name, declared, not_null, key) in columns {
        facts.insert(format!("table {table}"));
        let mut fact = format!("column {table}.{name}: {}", family(&declared));
        if not_null || key > 0 {
            fact.push_str(", not null");
        }
        if key > 0 {
            fact.push_str(&format!(", key {key}"));
        }
        facts.insert(fact);
    }
    for (table, name, unique, origin, partial, columns) in indexes {
        let fact = match origin.as_str() {
            "pk" => continue,
            // The backends name a constraint's index each their own way.
            "u" => format!("unique constraint on {table} ({columns})"),
            _ => format!(
                "index {name} on {table} ({columns}){}{}",
                if unique { ", unique" } else { "" },
                if partial { ", partial" } else { "" }
            ),
        };
        facts.insert(fact);
    }
    facts
}

/// The rows of `select`, a query of SQLite's tables `m` (`sqlite_master`), over the tables
/// the migrations made.
async fn sqlite_rows<T>(conn: &mut SqliteConnection, select: &str) -> Vec<T>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow> + Send + Unpin,
{
    let query = format!(
        "{select} WHERE m.type = 'table' AND m.name NOT LIKE $1 ESCAPE '\\' \
         AND m.name NOT LIKE $2 ESCAPE '\\'"
    );
    sqlx::query_as(&query)
        .bind(NOT_OURS)
        .bind(SQLX_TABLES)
        .fetch_all(conn)
        .await
        .unwrap()
}

/// The schema of the SQLite database at `url`.
async fn sqlite_facts(url: &str) -> BTreeSet<String> {
    let mut conn = SqliteConnection::connect(url).await.unwrap();
    let columns = sqlite_rows(
        &mut conn,
        "SELECT m.name, c.name, c.type, c.\"notnull\", c.pk \
         FROM sqlite_master m, pragma_table_info(m.name) c",
    )
    .await;
    let indexes = sqlite_rows(
        &mut conn,
        "SELECT m.name, i.name, i.\"unique\", i.origin, i.partial, \
         (SELECT group_concat(coalesce(c.name, '<expr>'), ', ') \
          FROM (SELECT name FROM pragma_index_info(i.name) ORDER BY seqno) c) \
         FROM sqlite_master m, pragma_index_list(m.name) i",
    )
    .await;
    conn.close().await.unwrap();
    facts(columns, indexes)
}

/// The schema of the PostgreSQL database at `url` (its `public` schema).
async fn postgres_facts(url: &str) -> BTreeSet<String> {
    let mut conn = PgConnection::connect(url).await.unwrap();
    let columns = sqlx::query_as(
        "SELECT c.table_name::text, c.column_name::text, c.data_type::text, \
         c.is_nullable = 'NO', coalesce(( \
           SELECT k.ordinal_position::bigint FROM information_schema.table_constraints t \
           JOIN information_schema.key_column_usage k \
             ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema \
           WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema \
             AND t.table_name = c.table_name AND k.column_name = c.column_name), 0) \
         FROM information_schema.columns c JOIN information_schema.tables t \
           ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' \
           AND c.table_name::text NOT LIKE $1",
    )
    .bind(SQLX_TABLES)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let indexes = sqlx::query_as(
        "SELECT t.relname::text, i.relname::text, x.indisunique, \
         CASE WHEN x.indisprimary THEN 'pk' WHEN k.contype = 'u' THEN 'u' ELSE 'c' END, \
         x.indpred IS NOT NULL, \
         array_to_string(ARRAY( \
           SELECT CASE WHEN x.indkey[n - 1] = 0 THEN '<expr>' \
             ELSE pg_get_indexdef(x.indexrelid, n, true) END \
           FROM generate_series(1, x.indnatts) n ORDER BY n), ', ') \
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid \
         JOIN pg_class t ON t.oid = x.indrelid \
         JOIN pg_namespace s ON s.oid = t.relnamespace \
         LEFT JOIN pg_constraint k ON k.conindid = x.indexrelid AND k.contype IN ('p', 'u') \
         WHERE s.nspname = 'public' AND t.relname::text NOT LIKE $1",
    )
    .bind(SQLX_TABLES)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
    facts(columns, indexes)
}

/// Migrates `db` as the server does when it starts.
async fn migrate(db: &TestDb) {
    Store::open(&db.url).await.unwrap().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_and_postgres_migrate_to_the_same_schema() {
    // An empty PostgreSQL database, not the tests' migrated template: this test migrates it.
    let Some(postgres) = TestDb::postgres_empty().await else {
        return;
    };
    let sqlite = TestDb::sqlite();
    migrate(&sqlite).await;
    migrate(&postgres).await;
    let on_sqlite = sqlite_facts(&sqlite.url).await;
    let on_postgres = postgres_facts(&postgres.url).await;
    sqlite.drop_it().await;
    postgres.drop_it().await;
    assert!(
        on_sqlite.iter().any(|fact| fact.starts_with("index ")),
        "the schema was not read: {on_sqlite:?}"
    );
    let only = |these: &BTreeSet<String>, those: &BTreeSet<String>| {
        these.difference(those).cloned().collect::<Vec<_>>()
    };
    let (sqlite_only, postgres_only) = (
        only(&on_sqlite, &on_postgres),
        only(&on_postgres, &on_sqlite),
    );
    assert!(
        sqlite_only.is_empty() && postgres_only.is_empty(),
        "the migrations build different schemas\nonly on SQLite:\n  {}\nonly on PostgreSQL:\n  {}",
        sqlite_only.join("\n  "),
        postgres_only.join("\n  ")
    );
}

/// Types spelt by either backend fall into the same family, and one outside the families
/// is kept as written so that it shows in a difference.
#[test]
fn declared_types_fall_into_families() {
    for (declared, expected) in [
        ("INTEGER", "integer"),
        ("bigint", "integer"),
        ("TEXT", "text"),
        ("character varying", "text"),
        ("REAL", "real"),
        ("double precision", "real"),
        ("bytea", "blob"),
        ("boolean", "boolean"),
    ] {
        assert_eq!(family(declared), expected, "{declared}");
    }
}
