//! 32-byte values (the secret, a salt, contributions) as 64 hex digits in the stored director: one, a list,
//! and a list of values not all given yet (`null` for those).

use serde::{Deserialize, Deserializer, Serializer};

/// 64 hex digits as 32 bytes.
fn decode<E: serde::de::Error>(text: &str) -> Result<[u8; 32], E> {
    let bytes = hex::decode(text).map_err(E::custom)?;
    bytes.try_into().map_err(|_| E::custom("not 32 bytes"))
}

/// One value.
pub(crate) mod one {
    use super::{Deserialize, Deserializer, Serializer, decode};

    pub(crate) fn serialize<S: Serializer>(bytes: &[u8; 32], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&hex::encode(bytes))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<[u8; 32], D::Error> {
        decode(&String::deserialize(deserializer)?)
    }
}

/// A list of values.
pub(crate) mod list {
    use super::{Deserialize, Deserializer, Serializer, decode};

    pub(crate) fn serialize<S: Serializer>(list: &[[u8; 32]], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(list.iter().map(hex::encode))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<[u8; 32]>, D::Error> {
        Vec::<String>::deserialize(deserializer)?.iter().map(|text| decode(text)).collect()
    }
}

/// A list of values, some not given yet.
pub(crate) mod options {
    use super::{Deserialize, Deserializer, Serializer, decode};

    pub(crate) fn serialize<S: Serializer>(list: &[Option<[u8; 32]>], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(list.iter().map(|value| value.map(hex::encode)))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Option<[u8; 32]>>, D::Error> {
        Vec::<Option<String>>::deserialize(deserializer)?
            .iter()
            .map(|text| text.as_deref().map(decode).transpose())
            .collect()
    }
}
