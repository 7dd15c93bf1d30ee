//! Who may read and write each chat: decided here on every request, for the chats' routes
//! and for a report of a message (which only its readers may file).

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::games::view::stored;
use crate::rooms::{RoomRole, role_of, room_in};
use crate::state::AppState;
use crate::store::{Channel, ChatRef, Status};

/// What a caller may do in a chat.
pub(super) struct Access {
    /// Whether the caller reads it, or why not.
    pub(super) read: Result<(), String>,
    /// Whether the caller writes in it, or why not (a sentence for the caller).
    pub(super) write: Result<(), String>,
    /// Whom the caller's message is told to in the inbox: the game master, when a seat
    /// writes in its thread.
    pub(super) tell: Option<i64>,
}

/// What the caller may do in a game's chat: the players' is its seated accounts' (and
/// closed to a pair of them one of which blocked the other); the spectators' is everyone
/// else's, its players' only once the game ended.
pub(super) async fn game_access(
    state: &AppState,
    id: &str,
    channel: Channel,
    caller: Option<&Caller>,
) -> ApiResult<Access> {
    let game = stored(&state.store, id).await?;
    let seats = state.store.seats(id).await?;
    let me = caller.map(|c| c.holder.account_id);
    let seated: Vec<i64> = seats
        .iter()
        .filter_map(|s| s.account.as_ref().map(|a| a.0))
        .collect();
    let player = me.is_some_and(|me| seated.contains(&me));
    let signed = caller.is_some();
    Ok(match channel {
        Channel::Players => {
            if !player {
                let refusal = "only the game's two players read and write its players' chat";
                return Ok(Access {
                    read: Err(refusal.to_owned()),
                    write: Err(refusal.to_owned()),
                    tell: None,
                });
            }
            let me = me.unwrap_or_default();
            let mut write = Ok(());
            for (other, name) in seats
                .iter()
                .filter_map(|s| s.account.as_ref())
                .filter(|a| a.0 != me)
            {
                if !state.store.blocked_between(me, *other).await? {
                    continue;
                }
                // The one who blocked is told what it did and how to undo it; the other
                // only that the chat is closed, as before.
                let mine = state.store.blocks_of(me).await?;
                write = Err(if mine.iter().any(|(blocked, _)| blocked == name) {
                    format!(
                        "You blocked {name}: neither of you can write here. \
                         Unblock on {name}'s profile page."
                    )
                } else {
                    "one of you blocked the other: the players' chat is closed".to_owned()
                });
            }
            Access {
                read: Ok(()),
                write,
                tell: None,
            }
        }
        _ if player && game.status != Status::Finished => {
            let refusal = "the players of a game read and write its spectators' chat once it ended";
            Access {
                read: Err(refusal.to_owned()),
                write: Err(refusal.to_owned()),
                tell: None,
            }
        }
        _ => Access {
            read: Ok(()),
            write: if signed {
                Ok(())
            } else {
                Err("writing in a chat needs credentials".to_owned())
            },
            tell: None,
        },
    })
}

/// What the caller may do in a room's chat: its table-talk is read by anyone and written by
/// its game master and seated accounts; a seat's thread is its account's and the game
/// master's alone.
pub(super) async fn room_access(
    state: &AppState,
    id: &str,
    channel: Channel,
    caller: Option<&Caller>,
) -> ApiResult<Access> {
    let room = room_in(&state.store, id).await?;
    let seats = state.store.room_seats(id).await?;
    let role = role_of(&room, &seats, caller);
    Ok(match channel {
        Channel::Thread(seat) => {
            if seat == 0 || seat > room.seats {
                return Err(ApiError::NotFound(format!(
                    "seat: the room has seats 1 to {}",
                    room.seats
                )));
            }
            let mine = matches!(role, RoomRole::Master)
                || matches!(role, RoomRole::Player(own) if own == seat);
            let answer = if mine {
                Ok(())
            } else {
                Err("a seat's thread is its player's and the game master's only".to_owned())
            };
            Access {
                read: answer.clone(),
                write: answer,
                tell: matches!(role, RoomRole::Player(_)).then_some(room.master.0),
            }
        }
        _ => Access {
            read: Ok(()),
            write: if matches!(role, RoomRole::Public) {
                Err(
                    "the table-talk is written by the game master and the seated players"
                        .to_owned(),
                )
            } else {
                Ok(())
            },
            tell: None,
        },
    })
}

/// Whether the caller may read the chat of this key (a game's or a room's, as stored with
/// its messages): what a report of one of its messages needs. A chat whose game or room is
/// gone is read by nobody.
pub(crate) async fn may_read(state: &AppState, key: &str, caller: &Caller) -> ApiResult<bool> {
    let Some(chat) = ChatRef::of_key(key) else {
        return Ok(false);
    };
    let access = if chat.channel.of_game() {
        game_access(state, &chat.place, chat.channel, Some(caller)).await
    } else {
        room_access(state, &chat.place, chat.channel, Some(caller)).await
    };
    match access {
        Ok(access) => Ok(access.read.is_ok()),
        Err(ApiError::NotFound(_)) => Ok(false),
        Err(e) => Err(e),
    }
}
