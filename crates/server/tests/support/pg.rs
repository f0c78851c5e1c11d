//! A PostgreSQL database of its own for each test that needs one. Shared by the server's and the tools'
//! integration tests (both include this file by path).

/// A PostgreSQL database made for one test, on the server that `TEST_DATABASE_URL` or `DATABASE_URL`
/// names; dropped by [`PgDatabase::drop_database`].
pub(crate) struct PgDatabase {
    admin: sqlx::PgPool,
    name: String,
    /// The URL of the new database.
    pub(crate) url: String,
}

impl PgDatabase {
    /// A fresh database, or `None` when no PostgreSQL server is configured (outside CI only: with
    /// `CI=true` a missing one fails the test).
    pub(crate) async fn create() -> Option<PgDatabase> {
        let admin_url = ["TEST_DATABASE_URL", "DATABASE_URL"]
            .iter()
            .filter_map(|name| std::env::var(name).ok())
            .find(|url| url.starts_with("postgres://") || url.starts_with("postgresql://"));
        let Some(admin_url) = admin_url else {
            assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must test PostgreSQL: set DATABASE_URL");
            eprintln!("skipped: no postgres:// URL in TEST_DATABASE_URL or DATABASE_URL");
            return None;
        };
        let name = format!("romirami_test_{}", uuid::Uuid::new_v4().simple());
        let admin = sqlx::PgPool::connect(&admin_url).await.expect("the PostgreSQL server answers");
        sqlx::query(&format!("CREATE DATABASE {name}")).execute(&admin).await.expect("create a database");
        let (base, query) = admin_url.split_once('?').map_or((admin_url.as_str(), None), |(b, q)| (b, Some(q)));
        let authority = base.find("://").map_or(0, |i| i + 3);
        let path = base[authority..].find('/').map_or(base.len(), |i| authority + i);
        let query = query.map(|q| format!("?{q}")).unwrap_or_default();
        let url = format!("{}/{name}{query}", &base[..path]);
        Some(PgDatabase { admin, name, url })
    }

    /// Drops the database.
    pub(crate) async fn drop_database(self) {
        sqlx::query(&format!("DROP DATABASE {} WITH (FORCE)", self.name))
            .execute(&self.admin)
            .await
            .expect("drop the test database");
        self.admin.close().await;
    }
}
