//! `romirami admin grant NAME` / `romirami admin revoke NAME`: names the players who may moderate
//! (docs/reliability.md, "Moderation"). Only from the command line, on the server's database, never over the
//! web: whoever runs it holds the database already. An admin keeps their name (with a password), so that
//! nobody else can be them; each change is written in the audit log.

use anyhow::{Context, bail};
use romirami_server::store::{Store, StoreError};

/// The arguments of `romirami admin`.
#[derive(Clone, Debug, clap::Args)]
pub struct AdminArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: AdminAction,
    /// The database: `sqlite://path` or `postgres://user@host/db`, as `serve` is given.
    #[arg(long, env = "DATABASE_URL", default_value = romirami_server::store::DEFAULT_DATABASE_URL, global = true)]
    pub database_url: String,
}

/// Grant or revoke.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum AdminAction {
    /// Make the player who keeps NAME an admin.
    Grant {
        /// A kept name, in any case.
        name: String,
    },
    /// Make them no longer one.
    Revoke {
        /// A kept name, in any case.
        name: String,
    },
}

/// Grants or revokes, and says what it did.
///
/// # Errors
/// When the database cannot be opened or written, or nobody keeps the name.
pub fn run_admin(args: &AdminArgs, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let store = Store::connect(&args.database_url).await.context("opening the database")?;
        let (name, admin) = match &args.action {
            AdminAction::Grant { name } => (name, true),
            AdminAction::Revoke { name } => (name, false),
        };
        let key = romirami_server::text::name_key(name.trim());
        let claim = match store.claim(&key).await {
            Ok(claim) => claim,
            Err(StoreError::NotFound) => bail!("nobody keeps the name {name:?}: an admin keeps their name"),
            Err(error) => return Err(error).context("reading the name"),
        };
        let changed = store.set_admin(claim.player.id, admin).await.context("writing the change")?;
        let who = format!("{} ({})", claim.player.name, claim.player.id);
        let said = match (admin, changed) {
            (true, true) => format!("{who} is an admin now"),
            (true, false) => format!("{who} was an admin already"),
            (false, true) => format!("{who} is no longer an admin"),
            (false, false) => format!("{who} was no admin"),
        };
        writeln!(out, "{said}")?;
        store.close().await;
        Ok(())
    })
}
