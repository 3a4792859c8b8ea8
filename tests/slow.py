"""Which tests are ``slow`` (tests/conftest.py marks them; ``scripts/test -m "not slow"`` is the
fast path, docs/testing.md). Slow by rule: the browser tests (``*_browser.py``), the cluster
(``tests/cluster/``) and the fuzzing (``tests/fuzz/``). Slow by measure, listed here: the modules
and tests that took 2 s or more each (wall time of ``--durations=0`` in a run of the suite on 2
busy cores, 2026-12-07; most start a server process, play whole matches or many random games). A new
test that is slow by that measure belongs here; a test under it should not be listed."""

from __future__ import annotations

SLOW_MODULES = frozenset({
    "tests/engines/test_public_actions.py",
    "tests/history/test_history_api.py",
    "tests/limits/test_socket_opens.py",
    "tests/limits/test_stream_bounds.py",
    "tests/ops/test_client_restart.py",
    "tests/ops/test_copy_database.py",
    "tests/ops/test_health.py",
    "tests/ops/test_logs.py",
    "tests/ops/test_shutdown.py",
    "tests/platform/test_accounts.py",
    "tests/platform/test_action_log.py",
    "tests/platform/test_bots_over_sockets.py",
    "tests/platform/test_clocks_every_game.py",
    "tests/platform/test_correspondence.py",
    "tests/platform/test_correspondence_restart.py",
    "tests/platform/test_crash_resume.py",
    "tests/platform/test_live_scale.py",
    "tests/platform/test_login_throttle.py",
    "tests/platform/test_my_rooms.py",
    "tests/platform/test_my_tables.py",
    "tests/platform/test_night_page_limits.py",
    "tests/platform/test_push_guard_bounds.py",
    "tests/platform/test_session_endings.py",
    "tests/platform/test_slow_consumer.py",
    "tests/platform/test_start_command.py",
    "tests/platform/test_synomilia_over_sockets.py",
    "tests/platform/test_table_and_names.py",
    "tests/security/test_admin_token.py",
    "tests/security/test_forwarded_for.py",
    "tests/security/test_headers.py",
    "tests/security/test_log_injection.py",
    "tests/security/test_transport.py",
    "tests/structure/test_imports_and_sizes.py",
    "tests/structure/test_match_protocol.py",
})

# module -> its slow test functions (every case of a parametrized one)
SLOW_TESTS: dict[str, frozenset[str]] = {
    "tests/engines/test_bots.py": frozenset({
        "test_bot_beats_random",
        "test_strong_bot_beats_the_easy_bot",
        "test_a_room_seats_a_strong_bot_that_plays_a_match_over_the_real_server",
        "test_strong_bot_ignores_what_its_seat_cannot_see",
        "test_worlds_agree_with_the_view_they_were_built_from",
        "test_strong_bot_plays_only_legal_actions",
        "test_three_magic_bot_prices_a_win_as_the_engine_scores_it",
        "test_three_magic_declines_a_win_worth_nothing_and_takes_the_others",
        "test_makelandia_keeps_its_kill_while_a_strong_character_can_answer_and_cards_are_to_spare",
    }),
    "tests/engines/test_contract.py": frozenset({
        "test_random_playouts",
        "test_a_view_shares_nothing_mutable",
        "test_malformed_actions_are_refused_with_the_protocol_errors",
        "test_every_awaited_decision_has_a_clock_and_a_legal_timeout",
        "test_system_steps_have_exactly_one_action",
        "test_same_seed_and_actions_give_same_views",
    }),
    "tests/engines/test_makelandia.py": frozenset({
        "test_random_games_conserve_cards_and_end",
    }),
    "tests/engines/test_makelandia_leaks.py": frozenset({
        "test_views_do_not_depend_on_hidden_information",
    }),
    "tests/engines/test_mipolin.py": frozenset({
        "test_variant_random_playouts_keep_invariants",
    }),
    "tests/engines/test_mipolin_leaks.py": frozenset({
        "test_private_log_details_reach_only_the_seats_the_rules_name",
    }),
    "tests/engines/test_peribit_leaks.py": frozenset({
        "test_a_seat_observes_nothing_of_the_other_hand_the_deck_and_pending_secrets",
        "test_the_spectator_view_holds_no_private_data",
    }),
    "tests/engines/test_three_magic_leaks.py": frozenset({
        "test_call_window_looks_the_same_whether_or_not_a_seat_can_call",
    }),
    "tests/limits/test_rate_limits.py": frozenset({
        "test_per_ip_buckets_behind_a_trusted_proxy",
        "test_memory_store_forgets_full_buckets",
    }),
    "tests/live/test_bot_seats.py": frozenset({
        "test_a_bot_replaces_a_player_who_left_a_running_match",
    }),
    "tests/live/test_chat.py": frozenset({
        "test_team_chat_of_a_match_stays_with_that_match_after_a_rematch",
        "test_room_chat_is_stored_and_replayed_to_new_sockets",
    }),
    "tests/live/test_hub_memory.py": frozenset({
        "test_joins_of_unknown_rooms_leave_no_lock",
        "test_a_finished_match_is_freed_without_the_cyclic_collector",
        "test_closed_sockets_and_a_forgotten_room_are_freed_without_the_cyclic_collector",
        "test_rooms_loaded_by_requests_leave_memory_once_idle",
    }),
    "tests/live/test_protocol.py": frozenset({
        "test_everything_a_played_match_sends_fits_the_server_models",
    }),
    "tests/live/test_reference_client.py": frozenset({
        "test_reference_client_plays_to_the_outcome",
    }),
    "tests/ops/test_gc_tuning.py": frozenset({
        "test_a_heap_that_grew_by_old_cyclic_garbage_is_collected",
        "test_a_heap_of_steady_size_is_not_stopped_for_a_full_collection",
    }),
    "tests/ops/test_metrics.py": frozenset({
        "test_the_server_process_times_its_garbage_collections",
        "test_made_up_methods_add_no_series",
        "test_metrics_need_a_token_and_follow_sockets",
        "test_action_counters_count_exactly_what_was_applied",
    }),
    "tests/platform/test_after_a_friend_left.py": frozenset({
        "test_a_new_table_of_another_game",
    }),
    "tests/platform/test_bad_input.py": frozenset({
        "test_json_the_database_cannot_store_is_refused_over_rest",
        "test_a_password_with_a_lone_surrogate_is_refused_not_a_500",
        "test_player_names_without_control_characters",
    }),
    "tests/platform/test_endings.py": frozenset({
        "test_abort_needs_everyone_present_and_is_unrated",
        "test_an_unrated_table_leaves_ratings_unchanged",
        "test_rage_quit_counts_as_a_loss_for_the_leaver",
        "test_claim_when_the_other_is_a_zombie",
        "test_leave_mid_match_a_bot_at_once_and_the_seat_taken_back",
        "test_resign_ends_the_match_rated_logged_and_replayed",
        "test_grace_zero_never_replaces_a_rest_player",
        "test_a_team_concedes_only_by_its_members_votes",
    }),
    "tests/platform/test_fast_pages.py": frozenset({
        "test_every_page_is_compressed_revalidated_and_described",
    }),
    "tests/platform/test_look_alike_names.py": frozenset({
        "test_a_look_alike_of_an_accounts_name_is_refused_to_guests_and_accounts",
        "test_a_rename_racing_a_join_never_seats_two_look_alike_names",
        "test_invisible_and_direction_changing_characters_are_refused",
        "test_existing_accounts_get_their_skeleton_and_older_keeps_a_shared_one",
        "test_a_claim_cannot_take_a_seat_mates_look_alike_name",
        "test_a_bot_and_a_person_never_read_the_same_in_either_language",
    }),
    "tests/platform/test_migrations.py": frozenset({
        "test_downgrade_to_base_and_back",
    }),
    "tests/platform/test_nights.py": frozenset({
        "test_a_night_goes_on_after_a_server_restart",
    }),
    "tests/platform/test_push.py": frozenset({
        "test_subscriptions_per_player_are_capped",
        "test_an_answer_owed_to_a_proposal_is_pushed_once_per_proposal",
        "test_without_the_test_setting_loopback_is_refused_and_never_posted_to",
        "test_endpoints_are_checked_and_subscriptions_are_the_callers_own",
        "test_one_push_per_event_decrypted_none_after_opting_out_and_gone_deleted",
        "test_twelve_hours_left_is_pushed_once_per_deadline",
        "test_the_same_calls_at_once_store_one_row_each",
        "test_chat_mention_reaches_only_who_may_read_it",
    }),
    "tests/platform/test_rematch.py": frozenset({
        "test_a_rematch_keeps_each_bot_at_its_level",
        "test_a_rematch_over_the_sockets_starts_on_the_same_sockets",
        "test_last_votes_at_once_start_exactly_one_match",
        "test_two_people_confirm_and_the_same_room_plays_again",
    }),
    "tests/platform/test_rest_api.py": frozenset({
        "test_whole_match_over_rest_only",
    }),
    "tests/platform/test_socket_hello.py": frozenset({
        "test_anything_but_a_hello_first_is_refused",
        "test_a_socket_without_hello_is_closed_and_never_joins",
        "test_the_deprecated_token_in_the_url_still_works",
    }),
    "tests/platform/test_zombie_seats.py": frozenset({
        "test_a_table_everyone_left_waits_for_them_then_is_aborted",
        "test_a_table_of_bots_alone_does_not_start",
        "test_coming_back_takes_the_seat_back",
        "test_a_person_coming_back_wakes_the_bots_and_the_wait_starts_again",
        "test_rest_players_and_the_grace_option",
    }),
    "tests/security/test_slow_clients.py": frozenset({
        "test_sockets_and_streams_outlive_the_read_timeout",
        "test_connections_never_exhaust_the_open_file_limit",
        "test_unfinished_requests_time_out",
        "test_a_huge_request_head_is_cut_off_early_and_stalls_nobody",
        "test_connections_are_bounded",
    }),
}
