//! Deduplicated race reports: one entry per pair of source sites and array
//! (separately for pairs within a block and pairs between blocks).

use std::collections::HashMap;

use hone_ir::AddressSpace;

use crate::report::{Race, RaceAccess};

type Key = (u8, u32, u32, u32, bool);

pub(crate) struct RaceLog {
    pub races: Vec<Race>,
    keys: Vec<Key>,
    index: HashMap<Key, usize>,
    max: usize,
    pub dropped: u64,
}

impl RaceLog {
    pub fn new(max: usize) -> RaceLog {
        RaceLog {
            races: Vec::new(),
            keys: Vec::new(),
            index: HashMap::new(),
            max,
            dropped: 0,
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &mut self,
        space: AddressSpace,
        obj: u32,
        name: &str,
        offset: u64,
        address: u64,
        first: (u32, RaceAccess),
        second: (u32, RaceAccess),
    ) {
        let (a, b) = (first.0.min(second.0), first.0.max(second.0));
        // Races between blocks are kept apart from those inside a block: the
        // fixes differ (a barrier cannot order blocks).
        let cross = first.1.block != second.1.block;
        let key = (space as u8, obj, a, b, cross);
        if let Some(&i) = self.index.get(&key) {
            self.races[i].count += 1;
            return;
        }
        self.insert(
            key,
            Race {
                space,
                array: name.to_string(),
                offset,
                address,
                first: first.1,
                second: second.1,
                count: 1,
            },
        );
    }

    fn insert(&mut self, key: Key, race: Race) {
        if let Some(&i) = self.index.get(&key) {
            self.races[i].count += race.count;
        } else if self.races.len() >= self.max {
            self.dropped += race.count;
        } else {
            self.index.insert(key, self.races.len());
            self.keys.push(key);
            self.races.push(race);
        }
    }

    /// Adds the races of a block run on its own, as if they had been found here.
    pub fn absorb(&mut self, other: RaceLog) {
        self.dropped += other.dropped;
        for (key, race) in other.keys.into_iter().zip(other.races) {
            self.insert(key, race);
        }
    }
}
