//! Move ordering on one worker: the ordering key (the static threat rank and cell scores, the
//! TT move, killers and history), the history tables and their updates, and the move lists
//! the node function walks (threat-aware candidates, defences against an open four).

use super::{history_bonus, with_gravity, Worker};
use crate::search::params::*;
use crate::search::picker::Keyed;
use crate::search::threats::{legal, sort_moves, static_order_key, DefenceFilter, RANK_UNIT};
use crate::types::{Color, Pos};
use smallvec::SmallVec;

impl Worker<'_> {
    /// Ordering key of a move for `me`.
    pub(super) fn order_key(&self, p: Pos, me: Color, ply: usize) -> i32 {
        let mut k = static_order_key(&self.board, p, me);
        // The key's threat band: exactly the moves `is_threat` calls threats (tested).
        let threat = k >= RANK_UNIT;
        if self.killers[ply][0] == p || self.killers[ply][1] == p {
            k += 5_000;
        } else if self.p.counter_bonus > 0
            && !threat
            && self
                .board
                .last_move()
                .is_some_and(|(l, _)| !l.is_pass() && self.counters[me.index()][l.index()] == p)
        {
            k += self.p.counter_bonus;
        }
        let h = self.history[self.history_table(me, threat)][p.index()] >> 4;
        k + if self.gravity {
            h
        } else {
            h.min(PLAIN_HISTORY_CAP)
        }
    }

    /// The history table of `me`'s threat moves or quiet moves: in renju two per colour (a
    /// threat's key is dominated by its rank, so what its cut-offs say about a cell would
    /// otherwise reorder the quiet moves there), in the other rules one per colour.
    #[inline]
    pub(super) fn history_table(&self, me: Color, threat: bool) -> usize {
        if self.gravity && threat {
            2 + me.index()
        } else {
            me.index()
        }
    }

    /// Move `m` of `me` gets history `bonus` (negative: a malus), by [`with_gravity`].
    #[inline]
    pub(super) fn update_history(&mut self, me: Color, m: Pos, bonus: i32, threat: bool) {
        let t = self.history_table(me, threat);
        let h = &mut self.history[t][m.index()];
        *h = with_gravity(*h, bonus);
    }

    /// The history updates of a cut-off by move `m` of `me` at remaining `depth`, after the
    /// quiet moves `tried_quiets`: with gravity, a bonus to `m` and the same malus to each of
    /// them; plain, `depth²` added to `m` only.
    pub(super) fn history_cutoff(
        &mut self,
        me: Color,
        m: Pos,
        threat: bool,
        depth: i32,
        tried_quiets: &[Pos],
    ) {
        if self.gravity {
            let bonus = history_bonus(self.p.history_bonus, depth);
            self.update_history(me, m, bonus, threat);
            for &q in tried_quiets {
                self.update_history(me, q, -bonus, false);
            }
        } else {
            self.history[me.index()][m.index()] += depth * depth;
        }
    }

    /// The candidate cells of `me` (legal or not) with their ordering keys: TT move, threats,
    /// killers, history; with a network played and [`SearchParams::policy_weight`] set, at a
    /// remaining `depth` of [`SearchParams::policy_depth`] or more, a quiet move's key gains
    /// its policy logit times the weight.
    pub(super) fn keyed_candidates(
        &self,
        ply: usize,
        tt_move: Pos,
        me: Color,
        depth: i32,
    ) -> Keyed {
        let mut keyed: Keyed = self
            .board
            .candidates()
            .map(|p| (self.key_of(p, tt_move, me, ply), p))
            .collect();
        if let Some((q, acc)) = &self.nn {
            let w = self.p.policy_weight;
            if w > 0 && depth >= self.p.policy_depth {
                for (k, p) in &mut keyed {
                    if *k < RANK_UNIT {
                        if let Some(l) = Self::policy_logit(q, acc.as_ref(), &self.board, *p, me) {
                            *k += (l * w as f32) as i32;
                        }
                    }
                }
            }
        }
        keyed
    }

    /// Ordering key of `p`: the TT move first, then [`Self::order_key`].
    #[inline]
    pub(super) fn key_of(&self, p: Pos, tt_move: Pos, me: Color, ply: usize) -> i32 {
        if p == tt_move {
            i32::MAX
        } else {
            self.order_key(p, me, ply)
        }
    }

    /// Legal moves of `me` that stop the opponent's open-four threat (or make a four), with
    /// their ordering keys. The defences are found first (no stone played), then legality
    /// (renju black's exact foul test plays stones) and keys for those only.
    pub(super) fn defence_moves(&mut self, ply: usize, tt_move: Pos, me: Color) -> Keyed {
        let filter = DefenceFilter::new(&self.board, me);
        let defences: SmallVec<[Pos; 32]> = self
            .board
            .candidates()
            .filter(|&p| filter.defends(&self.board, p))
            .collect();
        let mut v = Keyed::new();
        for p in defences {
            if legal(&mut self.board, p, me) {
                v.push((self.key_of(p, tt_move, me, ply), p));
            }
        }
        v
    }

    pub(super) fn ordered_moves_unpruned(
        &mut self,
        ply: usize,
        tt_move: Pos,
        me: Color,
    ) -> Vec<Pos> {
        let cands: SmallVec<[Pos; 128]> = self.board.candidates().collect();
        let mut v: Keyed = Keyed::new();
        for p in cands {
            if legal(&mut self.board, p, me) {
                v.push((self.key_of(p, tt_move, me, ply), p));
            }
        }
        sort_moves(&mut v)
    }
}
