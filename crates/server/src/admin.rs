//! The operators' tools (issue 24): roles, bans and the admin log, over HTTP for accounts
//! holding a role and at the command line (`swapboard admin`) for the operator.
//!
//! A ban ends the account's tokens and sessions at once (other instances stop trusting a
//! cached credential within 5 s), refuses its logins with 403, and forfeits every game it is
//! playing: each ends as if it resigned (aborted before the second move; a rated game is
//! rated as a resignation). Swap 61 seats are left to their game master, who can replace a
//! player. Every act is a line of the append-only admin log.

mod accounts;
mod adjudication;
mod gate;
mod log;
mod moderation;

use std::net::IpAddr;

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::RoomView;
use crate::auth::Caller;
use crate::clock::DAY_MS;
use crate::clock::rfc3339;
use crate::edge::{Body, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::moves::resignation;
use crate::games::view::after_change;
use crate::limits::accounts::RESET_MS;
use crate::limits::admin::MAX_BAN_DAYS;
use crate::live::{Change, Topic};
use crate::rooms::{announce, public_view};
use crate::secret::{random_secret, secret_hash};
use crate::state::AppState;
use crate::store::{BanOrder, LogFilter, Migrations, MoveError, Role, Store, StoreOptions};
use crate::tournaments::withdraw_everywhere;
use crate::version::VERSION;
pub use adjudication::Verdict;
use adjudication::adjudicate_game;
use gate::limit_of;
pub(crate) use gate::{MODERATORS, Reason, holding, reason_of};

/// The admin routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ban))
        .routes(routes!(unban))
        .routes(routes!(log::log))
        .routes(routes!(annul))
        .routes(routes!(adjudication::adjudicate))
        .routes(routes!(close_room))
        .routes(routes!(signups))
        .routes(routes!(reset_link))
        .routes(routes!(accounts::standing_list))
        .routes(routes!(accounts::account_file))
        .routes(routes!(accounts::add_note))
        .routes(routes!(accounts::unmute))
        .routes(routes!(accounts::grant, accounts::revoke))
        .routes(routes!(accounts::roles))
        .merge(moderation::router())
}

/// A ban: why, and for how long.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BanBody {
    /// Words for the admin log, told to the account at its next login: 1 to 500 characters.
    #[schema(min_length = 1, max_length = 500)]
    reason: String,
    /// For how many days, 1 to 3,650; left out, for good (until lifted). A ban of an
    /// account banned already replaces its term and reason.
    #[schema(minimum = 1, maximum = 3650)]
    days: Option<u32>,
}

/// What a ban or an unban did.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct BanView {
    /// The account.
    name: String,
    /// Whether it is banned now.
    banned: bool,
    /// Whether this request changed anything (the same ban again does not).
    changed: bool,
    /// When the ban ends by itself, in ms since the Unix epoch (`null`: for good, or not
    /// banned).
    until_ms: Option<i64>,
    /// The games it was playing that the ban forfeited.
    forfeited: Vec<String>,
}

/// The query of the list of recent sign-ups.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SignupsQuery {
    /// How many, newest first: 1 to 1,000 (default 100).
    limit: Option<u32>,
    /// Only the sign-ups from this client address.
    address: Option<IpAddr>,
}

/// An account as the list of recent sign-ups shows it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SignupLine {
    /// The account's name.
    name: String,
    /// When it was made, in ms since the Unix epoch.
    created_ms: i64,
    /// The client address it was made from (`null` for accounts older than the record).
    address: Option<String>,
}

/// The recent sign-ups.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Signups {
    /// Newest first.
    signups: Vec<SignupLine>,
}

/// What taking an account out of play ended: the games forfeited and the tournaments it left.
#[derive(Debug, Default)]
pub(crate) struct Forfeited {
    /// The games it was playing, forfeited.
    pub(crate) games: Vec<String>,
    /// The tournaments it left or withdrew from.
    pub(crate) tournaments: Vec<String>,
}

/// Takes the account `account_id` out of play (a ban, a deleted account): it withdraws from
/// every tournament it is in, and every game it is still playing is forfeited.
pub(crate) async fn forfeit_all(store: &Store, account_id: i64) -> anyhow::Result<Forfeited> {
    let (mut games, tournaments) = withdraw_everywhere(store, account_id).await?;
    for (game, seat) in store.playing(account_id).await? {
        match store.resign(&game.id, resignation(seat)).await {
            Ok(_) => games.push(game.id),
            // Ended meanwhile (a move, a flag): nothing to forfeit.
            Err(MoveError::NotPlaying(_) | MoveError::NoSuchGame) => {}
            Err(e) => return Err(anyhow::anyhow!("forfeit {}: {e}", game.id)),
        }
    }
    Ok(Forfeited { games, tournaments })
}

/// Tells the watchers of what [`forfeit_all`] ended.
pub(crate) async fn announce_forfeits(state: &AppState, forfeited: &Forfeited) {
    for id in &forfeited.games {
        after_change(state, id, Change::State).await;
    }
    for id in &forfeited.tournaments {
        let topic = Topic::Tournament(id.clone());
        state.live.announce(&topic, Change::State).await;
    }
}

/// Bans an account, for some days or for good: its tokens and sessions end, it cannot log
/// in (told why and until when), its waiting challenges are cancelled and its games being
/// played are forfeited. A ban with an end is lifted by itself within a minute of it.
#[utoipa::path(post, path = "/api/admin/accounts/{name}/ban", tag = "admin", request_body = BanBody,
    params(("name" = String, Path, description = "The account to ban")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account is banned", body = BanView),
        (status = 400, description = "A missing or too long reason, or days not 1 to 3,650", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator, or a moderator names an admin or moderator, or the caller names itself", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn ban(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(body): Body<BanBody>,
) -> ApiResult<Json<BanView>> {
    holding(&state, &caller, MODERATORS).await?;
    let reason = reason_of(Reason {
        reason: body.reason,
    })?;
    let until_ms = match body.days {
        None => None,
        Some(days) if (1..=MAX_BAN_DAYS).contains(&days) => {
            Some(state.clock.now_ms() + i64::from(days) * DAY_MS)
        }
        Some(days) => {
            return Err(ApiError::BadRequest(format!(
                "days: {days} is not 1 to {MAX_BAN_DAYS}"
            )));
        }
    };
    if name.eq_ignore_ascii_case(&caller.holder.name) {
        return Err(ApiError::Forbidden("you cannot ban yourself".to_owned()));
    }
    let target = state
        .store
        .login_of(&name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    let store = &state.store;
    if store.has_role(target.account_id, MODERATORS).await?
        && !store
            .has_role(caller.holder.account_id, &[Role::Admin])
            .await?
    {
        return Err(ApiError::Forbidden(
            "only an admin may ban an admin or a moderator".to_owned(),
        ));
    }
    let (account_id, changed) = state
        .store
        .set_banned(
            &name,
            BanOrder::Ban { until_ms },
            &caller.holder.name,
            &reason,
        )
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    let forfeited = forfeit_all(&state.store, account_id).await?;
    announce_forfeits(&state, &forfeited).await;
    Ok(Json(BanView {
        name: target.name,
        banned: true,
        changed,
        until_ms,
        forfeited: forfeited.games,
    }))
}

/// Lifts a ban: the account may log in again (its forfeited games stay lost).
#[utoipa::path(post, path = "/api/admin/accounts/{name}/unban", tag = "admin", request_body = Reason,
    params(("name" = String, Path, description = "The account to unban")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account is in good standing", body = BanView),
        (status = 400, description = "A missing or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn unban(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(reason): Body<Reason>,
) -> ApiResult<Json<BanView>> {
    holding(&state, &caller, MODERATORS).await?;
    let reason = reason_of(reason)?;
    let (_, changed) = state
        .store
        .set_banned(&name, BanOrder::Lift, &caller.holder.name, &reason)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    Ok(Json(BanView {
        name,
        banned: false,
        changed,
        until_ms: None,
        forfeited: Vec::new(),
    }))
}

/// What an annulment did.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Annulled {
    /// The game.
    id: String,
    /// Whether every rating was recomputed (the game had counted).
    rerated: bool,
}

/// Annuls a game, for admins: one being played ends aborted, and it no longer counts for the
/// ratings (which are recomputed from scratch when it had counted).
#[utoipa::path(post, path = "/api/admin/games/{id}/annul", tag = "admin", request_body = Reason,
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game is annulled", body = Annulled),
        (status = 400, description = "A missing or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn annul(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(reason): Body<Reason>,
) -> ApiResult<Json<Annulled>> {
    holding(&state, &caller, &[Role::Admin]).await?;
    let reason = reason_of(reason)?;
    let rerated = state
        .store
        .annul(&id, &caller.holder.name, &reason)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no game {id:?}")))?;
    after_change(&state, &id, Change::State).await;
    Ok(Json(Annulled { id, rerated }))
}

/// A reset link an operator made for an account (`swapboard admin reset-link`, `POST
/// /api/admin/accounts/{name}/reset-link`), to hand over by a channel of their own.
pub(crate) struct OperatorLink {
    /// The account's name as signed up.
    pub(crate) name: String,
    /// The link's path and query (`/reset-password?token=...`): the site's address goes
    /// before it.
    pub(crate) path: String,
    /// When it stops working, in ms since the Unix epoch.
    pub(crate) expires_ms: i64,
}

/// Makes a one-time reset link for the account `name`, good for as long as a mailed one,
/// logged in the admin log by `actor` with `reason`. `None` for no such account.
pub(crate) async fn operator_link(
    store: &Store,
    name: &str,
    actor: &str,
    reason: &str,
) -> anyhow::Result<Option<OperatorLink>> {
    let secret = random_secret();
    let expires_ms = store.now_ms() + RESET_MS;
    let made = store
        .operator_reset(name, actor, reason, &secret_hash(&secret), expires_ms)
        .await?;
    Ok(made.map(|name| OperatorLink {
        name,
        path: format!("/reset-password?token={secret}"),
        expires_ms,
    }))
}

/// A one-time password reset link made by an admin.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ResetLinkView {
    /// The account's name as signed up.
    name: String,
    /// The link: the site's address (`--public-url`) and `/reset-password?token=...`, or the
    /// path alone when the server has no public address.
    link: String,
    /// When it stops working, in ms since the Unix epoch (an hour on).
    expires_ms: i64,
}

/// Makes a one-time password reset link for an account, for admins, to hand to its owner by
/// a channel of the admin's (the owner has no confirmed address, or lost it): it works once,
/// for an hour, like a mailed one; written in the admin log (never the link).
#[utoipa::path(post, path = "/api/admin/accounts/{name}/reset-link", tag = "admin", request_body = Reason,
    params(("name" = String, Path, description = "The account")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The link, shown this once", body = ResetLinkView),
        (status = 400, description = "A missing or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn reset_link(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(reason): Body<Reason>,
) -> ApiResult<Json<ResetLinkView>> {
    holding(&state, &caller, &[Role::Admin]).await?;
    let reason = reason_of(reason)?;
    let made = operator_link(&state.store, &name, &caller.holder.name, &reason)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    let link = match &state.mail {
        Some(mailer) => mailer.link(&made.path),
        None => made.path,
    };
    Ok(Json(ResetLinkView {
        name: made.name,
        link,
        expires_ms: made.expires_ms,
    }))
}

/// Closes a Swap 61 room before its end, for admins: it is finished as it stands (no round
/// opens again, no submission is taken), written in the room's audit and the admin log.
#[utoipa::path(post, path = "/api/admin/rooms/{id}/close", tag = "admin", request_body = Reason,
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The room is closed: its public view", body = RoomView),
        (status = 400, description = "A missing or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "The room is over already", body = ErrorBody),
    ))]
pub(crate) async fn close_room(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(reason): Body<Reason>,
) -> ApiResult<Json<RoomView>> {
    holding(&state, &caller, &[Role::Admin]).await?;
    let reason = reason_of(reason)?;
    state
        .store
        .close_room(&id, &caller.holder.name, &reason)
        .await?;
    announce(&state, &id).await;
    Ok(Json(public_view(&state.store, &id).await?))
}

/// The latest sign-ups with the client address each came from, for admins and moderators
/// (to find a flood of accounts from one place).
#[utoipa::path(get, path = "/api/admin/signups", tag = "admin",
    params(
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 1000, description = "How many, newest first (default 100)"),
        ("address" = Option<String>, Query, description = "Only the sign-ups from this IP address"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The latest sign-ups, newest first", body = Signups),
        (status = 400, description = "A limit not 1 to 1,000, or an address that is no IP address", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
    ))]
pub(crate) async fn signups(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<SignupsQuery>,
) -> ApiResult<Json<Signups>> {
    holding(&state, &caller, MODERATORS).await?;
    let address = query.address.map(|a| a.to_string());
    let found = state
        .store
        .recent_signups(limit_of(query.limit)?, address.as_deref())
        .await?;
    Ok(Json(Signups {
        signups: found
            .into_iter()
            .map(|s| SignupLine {
                name: s.name,
                created_ms: s.created_ms,
                address: s.address,
            })
            .collect(),
    }))
}

/// Runs `swapboard migrate`: brings the database (created if missing) to this binary's
/// schema, whatever instances run on it; what it did, in words.
pub fn migrate(database: DatabaseOption) -> anyhow::Result<String> {
    let url = crate::backup::database_url(database.database.as_deref());
    crate::backup::runtime()?.block_on(async {
        let options = StoreOptions {
            migrations: Migrations::Always,
            ..StoreOptions::default()
        };
        let store = Store::open_with(&url, options).await?;
        let (found, now) = (store.found_schema(), store.schema());
        store.close().await;
        Ok(if found == now {
            format!("the database is at schema {now} already (swapboard {VERSION})")
        } else {
            format!("the database migrated from schema {found} to {now} (swapboard {VERSION})")
        })
    })
}

/// The database `swapboard admin` acts on.
#[derive(Clone, Debug, clap::Args)]
pub struct DatabaseOption {
    /// The database (default: $DATABASE_URL, else swapboard.db here).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
}

/// What `swapboard admin` does to an account, at the command line (acting as `operator` in
/// the admin log).
#[derive(Clone, Debug, clap::Subcommand)]
pub enum AdminAct {
    /// Grant a role: `admin` (everything) or `moderator` (bans and the chats).
    Grant {
        /// The account.
        name: String,
        /// `admin` or `moderator`.
        role: Role,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Take a role back.
    Revoke {
        /// The account.
        name: String,
        /// `admin` or `moderator`.
        role: Role,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// List who holds which role.
    Roles {
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Ban an account: its tokens and sessions end, it cannot log in, its games being played
    /// are forfeited.
    Ban {
        /// The account.
        name: String,
        /// Why, for the admin log (the account is told at its next login).
        #[arg(long)]
        reason: String,
        /// For how many days (1 to 3,650); left out, for good.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BAN_DAYS)))]
        days: Option<u32>,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Lift a ban.
    Unban {
        /// The account.
        name: String,
        /// Why, for the admin log.
        #[arg(long)]
        reason: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Annul a game: one being played ends aborted, and it no longer counts for the
    /// ratings (recomputed from scratch when it had counted).
    Annul {
        /// The game's id.
        id: String,
        /// Why, for the admin log.
        #[arg(long)]
        reason: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Decide the result of a game being played: it ends `adjudicated`, rated and counted
    /// in its tournament like any result.
    Adjudicate {
        /// The game's id.
        id: String,
        /// Who wins: `first`, `second`, or `draw` for nobody.
        #[arg(long)]
        result: Verdict,
        /// Why, for the admin log.
        #[arg(long)]
        reason: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Close a Swap 61 room before its end: it is finished as it stands.
    CloseRoom {
        /// The room's id.
        id: String,
        /// Why, for the admin log and the room's audit.
        #[arg(long)]
        reason: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Print a one-time password reset link for an account (good for an hour), to hand to
    /// its owner yourself.
    ResetLink {
        /// The account.
        name: String,
        /// Why, for the admin log.
        #[arg(long)]
        reason: String,
        /// The site's address as its users reach it, put before the link's path.
        #[arg(long, value_name = "URL", env = "SWAPBOARD_PUBLIC_URL")]
        public_url: Option<String>,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Print the latest sign-ups with the address each came from, newest first.
    Signups {
        /// How many, 1 to 1,000.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=1000))]
        limit: u32,
        /// Only those from this IP address.
        #[arg(long)]
        address: Option<IpAddr>,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
    /// Print the admin log, newest first.
    Log {
        /// How many lines, 1 to 1,000.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=1000))]
        limit: u32,
        /// Only this actor's lines (an account, `operator:USER`, `system`).
        #[arg(long)]
        actor: Option<String>,
        /// Only this action's lines (`ban`, `mute`, `grant`, ...).
        #[arg(long)]
        action: Option<String>,
        /// Only the lines about this account, game, room or report.
        #[arg(long)]
        target: Option<String>,
        /// The database.
        #[command(flatten)]
        db: DatabaseOption,
    },
}

impl AdminAct {
    fn database(&self) -> Option<&str> {
        match self {
            AdminAct::Grant { db, .. }
            | AdminAct::Revoke { db, .. }
            | AdminAct::Roles { db }
            | AdminAct::Ban { db, .. }
            | AdminAct::Unban { db, .. }
            | AdminAct::Annul { db, .. }
            | AdminAct::Adjudicate { db, .. }
            | AdminAct::CloseRoom { db, .. }
            | AdminAct::ResetLink { db, .. }
            | AdminAct::Signups { db, .. }
            | AdminAct::Log { db, .. } => db.database.as_deref(),
        }
    }
}

/// Runs `swapboard admin grant|revoke|roles|ban|unban|annul|adjudicate|close-room|reset-link|signups|log`
/// on a runtime of its own; what it did, in words. The database must be at this binary's
/// schema: an admin command never migrates one.
pub fn administer(act: AdminAct) -> anyhow::Result<String> {
    let url = crate::backup::database_url(act.database());
    crate::backup::runtime()?.block_on(async {
        let store = Store::open_as_is(&url).await?;
        let done = run(&store, act).await;
        store.close().await;
        done
    })
}

async fn run(store: &Store, act: AdminAct) -> anyhow::Result<String> {
    let missing = |name: &str| anyhow::anyhow!("no account {name:?}");
    Ok(match act {
        AdminAct::Grant { name, role, .. } => {
            let granted = store
                .grant_role(&name, role, &operator())
                .await?
                .ok_or_else(|| missing(&name))?;
            if granted {
                format!("{name} is now {}", role.as_str())
            } else {
                format!("{name} was {} already", role.as_str())
            }
        }
        AdminAct::Revoke { name, role, .. } => {
            let revoked = store
                .revoke_role(&name, role, &operator())
                .await?
                .ok_or_else(|| missing(&name))?;
            if revoked {
                format!("{name} is no longer {}", role.as_str())
            } else {
                format!("{name} was not {}", role.as_str())
            }
        }
        AdminAct::Roles { .. } => {
            let holders = store.role_holders().await?;
            if holders.is_empty() {
                "nobody holds a role".to_owned()
            } else {
                holders
                    .iter()
                    .map(|h| {
                        format!(
                            "{} {} since {}",
                            h.name,
                            h.role.as_str(),
                            rfc3339(h.granted_ms)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        }
        AdminAct::Ban {
            name, reason, days, ..
        } => {
            let until_ms = days.map(|days| store.now_ms() + i64::from(days) * DAY_MS);
            let (id, changed) = store
                .set_banned(&name, BanOrder::Ban { until_ms }, &operator(), &reason)
                .await?
                .ok_or_else(|| missing(&name))?;
            let forfeited = forfeit_all(store, id).await?;
            let was = if changed { "banned" } else { "banned already" };
            let term = until_ms.map_or_else(
                || " for good".to_owned(),
                |until| format!(" until {}", rfc3339(until)),
            );
            format!(
                "{name} {was}{term}; {} games forfeited, {} tournaments left",
                forfeited.games.len(),
                forfeited.tournaments.len()
            )
        }
        AdminAct::Unban { name, reason, .. } => {
            let (_, changed) = store
                .set_banned(&name, BanOrder::Lift, &operator(), &reason)
                .await?
                .ok_or_else(|| missing(&name))?;
            if changed {
                format!("{name} may log in again")
            } else {
                format!("{name} was not banned")
            }
        }
        AdminAct::Annul { id, reason, .. } => {
            let rerated = store
                .annul(&id, &operator(), &reason)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no game {id:?}"))?;
            if rerated {
                format!("{id} annulled; every rating recomputed")
            } else {
                format!("{id} annulled")
            }
        }
        AdminAct::Adjudicate {
            id, result, reason, ..
        } => {
            let reason = reason.trim();
            if reason.is_empty() {
                anyhow::bail!("--reason: empty; say why, for the admin log");
            }
            adjudicate_game(store, &id, result, &operator(), reason)
                .await
                .map_err(|e| anyhow::anyhow!("game {id:?}: {e}"))?;
            let how = match result {
                Verdict::First => "the first player wins",
                Verdict::Second => "the second player wins",
                Verdict::Draw => "drawn",
            };
            format!("{id} adjudicated: {how}")
        }
        AdminAct::CloseRoom { id, reason, .. } => {
            store
                .close_room(&id, &operator(), &reason)
                .await
                .map_err(|e| anyhow::anyhow!("room {id:?}: {e}"))?;
            format!("room {id} closed")
        }
        AdminAct::ResetLink {
            name,
            reason,
            public_url,
            ..
        } => {
            let made = operator_link(store, &name, &operator(), &reason)
                .await?
                .ok_or_else(|| missing(&name))?;
            let site = public_url.as_deref().unwrap_or("").trim_end_matches('/');
            format!(
                "a one-time link for {} (it works once, until {}): {site}{}",
                made.name,
                rfc3339(made.expires_ms),
                made.path
            )
        }
        AdminAct::Signups { limit, address, .. } => {
            let address = address.map(|a| a.to_string());
            let found = store.recent_signups(limit, address.as_deref()).await?;
            found
                .iter()
                .map(|s| {
                    let from = s.address.as_deref().unwrap_or("-");
                    format!("{} {} {from}", rfc3339(s.created_ms), s.name)
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
        AdminAct::Log {
            limit,
            actor,
            action,
            target,
            ..
        } => {
            let filter = LogFilter {
                before: None,
                actor,
                action,
                target,
            };
            let lines = store.admin_log(&filter, limit).await?;
            lines
                .iter()
                .map(|e| {
                    format!(
                        "{} {} {} {} {}",
                        rfc3339(e.at_ms),
                        e.actor,
                        e.action,
                        e.target,
                        e.detail
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
    })
}

/// Who the command line acts as, in the admin log: `operator:USER`, the Unix user who ran
/// it (`$USER`, else `$LOGNAME`), or `operator` when neither is set.
fn operator() -> String {
    ["USER", "LOGNAME"]
        .into_iter()
        .find_map(|name| std::env::var(name).ok().filter(|user| !user.is_empty()))
        .map_or_else(|| "operator".to_owned(), |user| format!("operator:{user}"))
}
