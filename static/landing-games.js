// What a landing card says about each game: typical length and a one-line pitch (en, ja).
// Titles and players come from the catalog (/api/games); pictures are static/img/<id>.svg.
export const CARD_INFO = {
  synomilia: {
    minutes: [10, 20],
    pitch: [
      "Bet sun and moon chips on a secret number — then bluff about changing it.",
      "伏せた数字に太陽と月のチップを賭ける、はったりの二人対戦。",
    ],
  },
  peribit: {
    minutes: [15, 25],
    pitch: [
      "Place stones at the same moment as your rival and capture whole lanes.",
      "相手と同時に石を置き、列ごと石を取り合う。",
    ],
  },
  three_magic: {
    minutes: [20, 40],
    pitch: [
      "Fire, Wood and Water: build three spells in a hand you may never reorder.",
      "火・木・水。並べ替えられない手札で三つの呪文をそろえよう。",
    ],
  },
  mipolin: {
    minutes: [20, 30],
    pitch: [
      "Search the nine places of the map and deduce who is hiding before the days run out.",
      "九つの場所を探り、日数が尽きる前に隠れている人を推理する。",
    ],
  },
  makelandia: {
    minutes: [15, 30],
    pitch: [
      "Light against Dark: battle your neighbours with hidden cards and storm the castle.",
      "光と闇のチーム戦。隠した手札で隣と戦い、城を落とせ。",
    ],
  },
};
