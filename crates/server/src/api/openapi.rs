//! The OpenAPI document, generated from the handlers' annotations, so that it cannot drift from them.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::{AnalysisJson, DecisionJson, ReplayJson, ReplayStepJson, SummaryJson};
use super::{
    ApiError, ApiErrorBody, ApiErrorCode, ApiErrorDetail, Game, GameList, GamePlayerJson, Health, PlayerGameStats,
    PlayerPage, TableInfo, Tables,
};
use super::{Audit, AuditJson, BanJson, BanRequest, Bans, ReportJson, ReportRequest, Reported, Reports};
use super::{ChatLineJson, Deletion, DeviceJson, Export, Me, PasswordChange};
use super::{ClaimRequest, Claimed, SignInRequest, SignedIn};
use super::{Collusion, SharedPairJson};
use super::{ContributeRequest, CreateTournament, CreatedTournament, PauseRequest, TournamentList};
use super::{Leaderboard, LeaderboardEntry, PlayerRatings, RatingChangeJson, RatingJson};
use super::{MyTable, MyTables};
use super::{PushKey, Subscribed, SubscriptionKeys, SubscriptionRequest, UnsubscribeRequest};
use super::{account, analysis, collusion, games, live, me, moderation, names, players, push, ratings, tournaments};
use crate::protocol::{PlayerId, PlayerInfo, SpectatorPolicy, TableId, TableState, TableSummary};

/// The OpenAPI document of this API.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Romi Rami Online",
        description = "Finished games, their records, players' statistics and ratings, each game's \
                       leaderboard, the live public tables and a table for its invite page \
                       of a Romi Rami Online server; claiming a name with a password and signing in with it. Games in play are played and watched over the \
                       WebSocket at /ws (see docs/protocol.md)."
    ),
    paths(
        live::health,
        games::list_games,
        games::game,
        games::record,
        analysis::replay,
        analysis::analysis,
        players::player,
        names::claim,
        names::sign_in,
        ratings::player_ratings,
        ratings::leaderboard,
        live::tables,
        live::table,
        tournaments::create,
        tournaments::list,
        tournaments::tournament,
        tournaments::join,
        tournaments::withdraw,
        tournaments::pause,
        me::my_tables,
        push::key,
        push::subscribe,
        push::unsubscribe,
        account::me,
        account::sign_out,
        account::sign_out_everywhere,
        account::change_password,
        account::export,
        account::delete_me,
        moderation::report,
        moderation::reports,
        moderation::bans,
        moderation::ban,
        moderation::unban,
        moderation::audit,
        moderation::remove_line,
        moderation::close_table,
        collusion::collusion
    ),
    components(schemas(
        Health,
        Collusion,
        SharedPairJson,
        GameList,
        Game,
        GamePlayerJson,
        ReplayJson,
        ReplayStepJson,
        AnalysisJson,
        DecisionJson,
        SummaryJson,
        PlayerPage,
        ClaimRequest,
        Claimed,
        SignInRequest,
        SignedIn,
        PlayerRatings,
        RatingJson,
        RatingChangeJson,
        crate::store::ratings::Unrated,
        Leaderboard,
        LeaderboardEntry,
        PlayerGameStats,
        Tables,
        TableInfo,
        crate::protocol::Clock,
        TableSummary,
        TableState,
        SpectatorPolicy,
        PlayerInfo,
        PlayerId,
        TableId,
        CreateTournament,
        CreatedTournament,
        PauseRequest,
        ContributeRequest,
        TournamentList,
        crate::tournament::TournamentJson,
        romirami_tournament::View,
        romirami_tournament::PlayerView,
        romirami_tournament::RoundView,
        romirami_tournament::TableView,
        romirami_tournament::StandingView,
        romirami_tournament::Status,
        MyTables,
        MyTable,
        PushKey,
        SubscriptionRequest,
        SubscriptionKeys,
        UnsubscribeRequest,
        Subscribed,
        Me,
        DeviceJson,
        PasswordChange,
        Deletion,
        Export,
        ChatLineJson,
        ReportRequest,
        Reported,
        ReportJson,
        Reports,
        BanRequest,
        BanJson,
        Bans,
        AuditJson,
        Audit,
        ApiErrorBody,
        ApiErrorDetail,
        ApiErrorCode
    )),
    modifiers(&BearerToken)
)]
pub struct ApiDoc;

/// The `token` security scheme: a player's token (the one `hello` takes) as a bearer token.
struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("A player's token, as `welcome` or `POST /api/sign-in` gave it."))
                    .build(),
            ),
        );
    }
}

pub(super) async fn openapi_json() -> Response {
    match ApiDoc::openapi().to_json() {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(e) => ApiError::internal(&e).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::GAME_QUERY_PARAMETERS;

    #[test]
    fn the_document_lists_the_parameters_the_parser_reads() {
        let doc = ApiDoc::openapi();
        let games = doc.paths.paths.get("/api/games").and_then(|item| item.get.as_ref()).expect("GET /api/games");
        let mut documented: Vec<&str> =
            games.parameters.iter().flatten().map(|parameter| parameter.name.as_str()).collect();
        documented.sort_unstable();
        let mut parsed = GAME_QUERY_PARAMETERS.to_vec();
        parsed.sort_unstable();
        assert_eq!(documented, parsed);
    }
}
