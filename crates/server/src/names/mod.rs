//! Names you keep: a guest claims their name with a password, and signs in with it from another
//! browser to the same player (same id, history and ratings); nobody else can take a claimed name, in
//! any case or width ([`name_key`]). Unclaimed names stay shared, as guests' names always were.
//!
//! A sign-in hands out a new token of the same kind a guest gets at its first `hello`
//! ([`Players::issue_token`]): the browsers the player signed in from before keep theirs. Wrong passwords
//! are slowed down per name and per client address (`attempts.rs`), and a wrong name and a wrong password
//! are one answer ([`NameError::WrongNameOrPassword`]). Passwords are hashed with argon2id on blocking
//! threads ([`password`]); a password or a token is never logged.

mod attempts;
pub mod password;

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::addresses::exempt;
use crate::config::Config;
use crate::moderation::{Banned, Moderation};
use crate::players::Players;
use crate::protocol::PlayerInfo;
use crate::store::{Store, StoreError};
use crate::sync::lock;
use crate::text::{clean_name, name_key, name_skeleton};
use attempts::Attempts;
use password::{HashError, Hasher, check_password};

/// Why a claim or a sign-in was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// The password is too short or too long; the sentence says which.
    #[error("{0}")]
    BadPassword(String),
    /// The name cannot be a display name (empty, too long, invisible characters); the sentence says why.
    #[error("{0}")]
    BadName(String),
    /// No player has this token.
    #[error("that token is not known here")]
    BadToken,
    /// The player already claimed their name.
    #[error("you already keep your name")]
    AlreadyClaimed,
    /// Another player keeps this name (in some case or width).
    #[error("another player keeps this name; choose another")]
    NameTaken,
    /// No such name, or not its password: one answer for both.
    #[error("wrong name or password")]
    WrongNameOrPassword,
    /// The player is banned (after a right password).
    #[error("{}", .0.sentence())]
    Banned(Banned),
    /// The player keeps no name, so has no password.
    #[error("you keep no name, so you have no password")]
    NoKeptName,
    /// Not the player's password.
    #[error("wrong password")]
    WrongPassword,
    /// Too many wrong passwords for this name or from this address lately.
    #[error("too many wrong passwords; try again in {} s", retry_after.as_secs())]
    TooManyAttempts {
        /// How long until the next try may be made (whole seconds, rounded up).
        retry_after: Duration,
    },
    /// The server is too busy checking passwords, or its database does not answer: try again later.
    #[error("the server cannot check passwords now; try again in a moment")]
    Unavailable,
    /// Something failed on the server; logged, not shown.
    #[error("the server could not do that")]
    Internal,
}

impl From<StoreError> for NameError {
    fn from(error: StoreError) -> NameError {
        match error {
            StoreError::Unavailable(cause) => {
                tracing::warn!(%cause, "names: the database is unavailable");
                NameError::Unavailable
            }
            other => {
                tracing::error!(error = %other, "names: a store call failed");
                NameError::Internal
            }
        }
    }
}

impl From<HashError> for NameError {
    fn from(error: HashError) -> NameError {
        match error {
            HashError::Busy => NameError::Unavailable,
            HashError::Failed(cause) => {
                tracing::error!(%cause, "names: a password hash failed");
                NameError::Internal
            }
        }
    }
}

/// Claims and sign-ins.
#[derive(Debug)]
pub struct Names {
    store: Store,
    players: Arc<Players>,
    config: Arc<Config>,
    attempts: Mutex<Attempts>,
    hasher: Hasher,
    moderation: Arc<Moderation>,
}

impl Names {
    /// Claims and sign-ins over `store`, for the players of `players`, limited as `config` says; a player
    /// `moderation` bans signs in to nothing.
    pub fn new(store: Store, players: Arc<Players>, config: Arc<Config>, moderation: Arc<Moderation>) -> Names {
        let hasher = Hasher::new(config.sign_in.concurrent_hashes);
        let attempts = Mutex::new(Attempts::new(config.sign_in.clone()));
        Names { store, players, config, attempts, hasher, moderation }
    }

    /// Whether another player keeps `name` (a [`clean_name`]d display name) or a name that looks the same: a new
    /// guest may not take it.
    ///
    /// # Errors
    /// When the store cannot be asked.
    pub async fn is_kept(&self, name: &str) -> Result<bool, StoreError> {
        // Every new guest asks: in a storm of them, a few at a time, as the hellos with a token do.
        let turn = self.players.store_turn().await?;
        // The same name in any case, or one that looks the same (text::name_skeleton).
        let kept = self.store.is_claimed_like(&name_key(name), &name_skeleton(name)).await;
        drop(turn);
        kept
    }

    /// Whether `player` keeps their name.
    ///
    /// # Errors
    /// When the store cannot be asked.
    pub async fn keeps_name(&self, player: &PlayerInfo) -> Result<bool, StoreError> {
        self.store.has_claimed(player.id).await
    }

    /// The player whose token is `token` claims their name with `password`; returns them.
    ///
    /// # Errors
    /// [`NameError::BadPassword`], [`NameError::BadToken`], [`NameError::AlreadyClaimed`] when they keep it
    /// already, [`NameError::NameTaken`] when someone else keeps it; [`NameError::Unavailable`] and
    /// [`NameError::Internal`] when the server cannot.
    pub async fn claim(&self, token: &str, password: &str) -> Result<PlayerInfo, NameError> {
        let password = check_password(password).map_err(NameError::BadPassword)?;
        let player = self.players.authenticate(token).await?.ok_or(NameError::BadToken)?;
        if self.store.has_claimed(player.id).await? {
            return Err(NameError::AlreadyClaimed);
        }
        let key = name_key(&player.name);
        // Asked before the costly hash; the unique index settles a race between two claims.
        if self.is_kept(&player.name).await? {
            return Err(NameError::NameTaken);
        }
        let hash = self.hasher.hash(password).await?;
        match self.store.claim_name(player.id, &key, &name_skeleton(&player.name), &hash).await {
            Ok(()) => {
                tracing::info!(player = %player.id, "a player claimed their name");
                Ok(player)
            }
            Err(StoreError::Duplicate(_)) if self.store.has_claimed(player.id).await? => Err(NameError::AlreadyClaimed),
            Err(StoreError::Duplicate(_)) => Err(NameError::NameTaken),
            Err(error) => Err(error.into()),
        }
    }

    /// Signs in with `name` and `password` from the client `address`: the player who keeps the name,
    /// and a new token of theirs.
    ///
    /// # Errors
    /// [`NameError::BadName`] and [`NameError::BadPassword`] for what no claimed name or password can be,
    /// [`NameError::TooManyAttempts`] while the name or the address is locked,
    /// [`NameError::WrongNameOrPassword`]; [`NameError::Unavailable`] and [`NameError::Internal`] when the
    /// server cannot.
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        address: IpAddr,
        device: Option<&str>,
    ) -> Result<(PlayerInfo, String), NameError> {
        let name = clean_name(name).map_err(NameError::BadName)?;
        let password = check_password(password).map_err(NameError::BadPassword)?;
        let key = name_key(&name);
        let counted = (!exempt(address, &self.config)).then_some(address);
        // Counted before the hash: a burst of guesses checks no more passwords than the same guesses one
        // by one would (attempts.rs). The guard settles the attempt however this ends.
        lock(&self.attempts).begin(&key, counted, Instant::now()).map_err(|wait| NameError::TooManyAttempts {
            retry_after: Duration::from_secs(wait.as_secs() + u64::from(wait.subsec_nanos() > 0)),
        })?;
        let attempt = Attempt { attempts: &self.attempts, key: &key, address: counted, settled: false };
        let claim = match self.store.claim(&key).await {
            Ok(claim) => Some(claim),
            Err(StoreError::NotFound) => None,
            Err(error) => return Err(error.into()),
        };
        let (stored, player) = claim.map(|c| (c.password_hash, c.player)).unzip();
        let matched = self.hasher.verify(password, stored).await?;
        let player = match player {
            Some(player) if matched => player,
            _ => {
                attempt.failed();
                return Err(NameError::WrongNameOrPassword);
            }
        };
        attempt.succeeded();
        // Told only to whoever knows the password: a ban is no one else's business.
        if let Some(ban) = self.moderation.ban_of(player.id) {
            return Err(NameError::Banned(ban));
        }
        let token = self.players.issue_token(&player, device).await?;
        tracing::info!(player = %player.id, "a player signed in");
        Ok((player, token))
    }
}

impl Names {
    /// Checks `password` against the one `player` keeps their name with, from the client `address`: a wrong
    /// one counts against the name and the address as a wrong sign-in does, so a stolen token cannot be
    /// used to guess the password faster than a sign-in can.
    ///
    /// # Errors
    /// [`NameError::NoKeptName`] when they keep no name, [`NameError::TooManyAttempts`],
    /// [`NameError::WrongPassword`]; [`NameError::Unavailable`] and [`NameError::Internal`].
    pub async fn check_own_password(
        &self,
        player: &PlayerInfo,
        password: &str,
        address: IpAddr,
    ) -> Result<(), NameError> {
        let key = name_key(&player.name);
        let claim = match self.store.claim(&key).await {
            Ok(claim) if claim.player.id == player.id => claim,
            Ok(_) | Err(StoreError::NotFound) => return Err(NameError::NoKeptName),
            Err(error) => return Err(error.into()),
        };
        // Too long or too short: no kept password is, so it is wrong, without a hash.
        let Ok(password) = check_password(password) else { return Err(NameError::WrongPassword) };
        let counted = (!exempt(address, &self.config)).then_some(address);
        lock(&self.attempts).begin(&key, counted, Instant::now()).map_err(|wait| NameError::TooManyAttempts {
            retry_after: Duration::from_secs(wait.as_secs() + u64::from(wait.subsec_nanos() > 0)),
        })?;
        let attempt = Attempt { attempts: &self.attempts, key: &key, address: counted, settled: false };
        if self.hasher.verify(password, Some(claim.password_hash)).await? {
            attempt.succeeded();
            Ok(())
        } else {
            attempt.failed();
            Err(NameError::WrongPassword)
        }
    }

    /// Gives `player`'s kept name the password `new`, once `old` is checked ([`Names::check_own_password`]).
    ///
    /// # Errors
    /// As [`Names::check_own_password`], and [`NameError::BadPassword`] for a new password too short or long.
    pub async fn change_password(
        &self,
        player: &PlayerInfo,
        old: &str,
        new: &str,
        address: IpAddr,
    ) -> Result<(), NameError> {
        let new = check_password(new).map_err(NameError::BadPassword)?;
        self.check_own_password(player, old, address).await?;
        let hash = self.hasher.hash(new).await?;
        match self.store.set_password_hash(player.id, &hash).await {
            Ok(()) => {
                tracing::info!(player = %player.id, "a player changed their password");
                Ok(())
            }
            Err(StoreError::NotFound) => Err(NameError::NoKeptName),
            Err(error) => Err(error.into()),
        }
    }
}

/// A sign-in attempt begun ([`Attempts::begin`]): settled as failed or succeeded, or else abandoned when
/// dropped (an error, or a client that went before its password was checked).
struct Attempt<'a> {
    attempts: &'a Mutex<Attempts>,
    key: &'a str,
    address: Option<IpAddr>,
    settled: bool,
}

impl Attempt<'_> {
    fn failed(mut self) {
        self.settled = true;
        lock(self.attempts).failed(self.key, self.address, Instant::now());
    }

    fn succeeded(mut self) {
        self.settled = true;
        lock(self.attempts).succeeded(self.key, self.address);
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        if !self.settled {
            lock(self.attempts).abandoned(self.key, self.address);
        }
    }
}
