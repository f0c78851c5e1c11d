//! The server's integration tests, in one binary (each module was a binary of its own: linking 37 of them
//! took much of a CI run). Each module says what it tests; `support/` holds what they share.
//! `hidden_information/` is a binary of its own: it reads every log line of its process.

#[path = "../support/mod.rs"]
mod support;

use support::{cluster as cluster_support, common, healthy, json_ws, pg, pile, proxy, raw};

mod accounts;
mod analysis;
mod any_game;
mod authorization;
mod bad_input;
mod bots_and_clocks;
mod cluster;
mod cluster_failover;
mod collusion;
mod finished_tables;
mod games;
mod hostile;
mod hostile_lobby;
mod hostile_transport;
mod leases;
mod limits;
mod lobby;
mod moderation;
mod names;
mod origin;
mod outage;
mod player_stats;
mod push;
mod ratings;
mod reconnect;
mod rematch;
mod request_timeout;
mod rest;
mod rest_ratings;
mod rummy_play;
mod rummy_tables;
mod shuffle_proof;
mod spectators;
mod store;
mod tables;
mod together;
mod tournaments;
mod turn_based;
mod waiting_tables;
mod watching_own_seat;
mod web_files;
