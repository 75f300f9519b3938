//! A small XML well-formedness check, for the pictures and the page `leaselab walkthrough`
//! writes (no XML parser is among the dependencies, and one is not worth adding for this): one
//! root element (after an optional XML declaration, comments and a `<!DOCTYPE …>`), every tag
//! closed in order, names that are names, attributes quoted and not repeated, `&` only in a
//! known entity or a character reference, `<` only in markup, and only characters XML 1.0
//! allows. It returns the elements, for the tests to look into.

/// One element: its name, its attributes, all the text inside it (its descendants' too), and
/// the element it is in (an index into the list `parse` returns).
#[derive(Debug, Clone)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub text: String,
    pub parent: Option<usize>,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Whether element `i` is inside element `ancestor`.
pub fn within(elements: &[Element], mut i: usize, ancestor: usize) -> bool {
    while let Some(p) = elements[i].parent {
        if p == ancestor {
            return true;
        }
        i = p;
    }
    false
}

fn is_name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == ':'
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit() || matches!(c, '-' | '.' | '\u{b7}')
}

fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{fffe}' && c != '\u{ffff}')
}

/// Text with its references checked and resolved, or what is wrong with it.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find(['&', '<']) {
        out.push_str(&rest[..i]);
        if rest[i..].starts_with('<') {
            return Err(format!("a `<` in text or an attribute: {:?}", &rest[i..(i + 20).min(rest.len())]));
        }
        let end = rest[i..].find(';').ok_or_else(|| format!("a `&` without `;`: {:?}", &rest[i..(i + 20).min(rest.len())]))?;
        let name = &rest[i + 1..i + end];
        let c = match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ if name.starts_with("#x") => {
                u32::from_str_radix(&name[2..], 16).ok().and_then(char::from_u32).ok_or(format!("bad reference &{name};"))?
            }
            _ if name.starts_with('#') => name[1..].parse().ok().and_then(char::from_u32).ok_or(format!("bad reference &{name};"))?,
            _ => return Err(format!("an unknown entity &{name};")),
        };
        out.push(c);
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The elements of a well-formed document, in document order, or what is wrong and where.
pub fn parse(doc: &str) -> Result<Vec<Element>, String> {
    if let Some(c) = doc.chars().find(|&c| !xml_char(c)) {
        return Err(format!("a character XML 1.0 forbids: U+{:04X}", c as u32));
    }
    let mut elements: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut rest = doc;
    let mut roots = 0;
    let at = |rest: &str| doc.len() - rest.len();
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            let text = unescape(rest)?;
            if open.is_empty() && !text.trim().is_empty() {
                return Err(format!("text after the root element at byte {}", at(rest)));
            }
            for &i in &open {
                elements[i].text.push_str(&text);
            }
            break;
        };
        let text = unescape(&rest[..lt])?;
        if open.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root element at byte {}", at(rest)));
        }
        for &i in &open {
            elements[i].text.push_str(&text);
        }
        rest = &rest[lt..];
        if let Some(r) = rest.strip_prefix("<!--") {
            let end = r.find("-->").ok_or("a comment that does not end")?;
            rest = &r[end + 3..];
        } else if let Some(r) = rest.strip_prefix("<?") {
            let end = r.find("?>").ok_or("a declaration that does not end")?;
            rest = &r[end + 2..];
        } else if let Some(r) = rest.strip_prefix("<!DOCTYPE") {
            if roots > 0 || !open.is_empty() {
                return Err("a DOCTYPE after the root element began".into());
            }
            let end = r.find('>').ok_or("a DOCTYPE that does not end")?;
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix("</") {
            let end = r.find('>').ok_or("a closing tag that does not end")?;
            let name = r[..end].trim_end();
            let i = open.pop().ok_or_else(|| format!("</{name}> closes nothing"))?;
            if elements[i].name != name {
                return Err(format!("</{name}> closes <{}>", elements[i].name));
            }
            rest = &r[end + 1..];
        } else {
            let (mut element, closed, r) = tag(&rest[1..])?;
            element.parent = open.last().copied();
            if open.is_empty() {
                roots += 1;
                if roots > 1 {
                    return Err(format!("a second root element <{}>", element.name));
                }
            }
            elements.push(element);
            if !closed {
                open.push(elements.len() - 1);
            }
            rest = r;
        }
    }
    if let Some(&i) = open.last() {
        return Err(format!("<{}> is never closed", elements[i].name));
    }
    if roots == 0 {
        return Err("no root element".into());
    }
    Ok(elements)
}

/// A start tag after its `<`: the element, whether it closed itself, and what follows the tag.
fn tag(s: &str) -> Result<(Element, bool, &str), String> {
    let name_end = s.find(|c: char| !is_name_char(c)).unwrap_or(s.len());
    let name = &s[..name_end];
    if !name.starts_with(is_name_start) {
        return Err(format!("a tag without a name: <{:?}", &s[..20.min(s.len())]));
    }
    let mut element = Element { name: name.into(), attrs: Vec::new(), text: String::new(), parent: None };
    let mut rest = &s[name_end..];
    loop {
        let trimmed = rest.trim_start();
        let spaced = trimmed.len() < rest.len();
        rest = trimmed;
        if let Some(r) = rest.strip_prefix("/>") {
            return Ok((element, true, r));
        }
        if let Some(r) = rest.strip_prefix('>') {
            return Ok((element, false, r));
        }
        if !spaced {
            return Err(format!("<{name}>: attributes must be apart: {:?}", &rest[..20.min(rest.len())]));
        }
        let eq = rest.find('=').ok_or_else(|| format!("<{name}>: an attribute without a value"))?;
        let attr = rest[..eq].trim_end();
        if !attr.starts_with(is_name_start) || !attr.chars().all(is_name_char) {
            return Err(format!("<{name}>: a bad attribute name {attr:?}"));
        }
        let value = rest[eq + 1..].trim_start();
        let quote =
            value.chars().next().filter(|q| *q == '"' || *q == '\'').ok_or_else(|| format!("<{name} {attr}=…>: an unquoted value"))?;
        let end = value[1..].find(quote).ok_or_else(|| format!("<{name} {attr}=…>: a value that does not end"))?;
        if element.attrs.iter().any(|(n, _)| n == attr) {
            return Err(format!("<{name}>: the attribute {attr} twice"));
        }
        element.attrs.push((attr.into(), unescape(&value[1..1 + end])?));
        rest = &value[end + 2..];
    }
}

#[test]
fn the_check_finds_what_is_not_well_formed() {
    assert!(parse(r#"<svg a="1"><g><text>a &amp; b &#233;</text></g><rect/></svg>"#).is_ok());
    assert!(parse("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/></head></html>").is_ok());
    for bad in [
        "<svg><g></svg>",
        "<svg></g>",
        "<svg a=1/>",
        r#"<svg a="1" a="2"/>"#,
        "<svg>a & b</svg>",
        "<svg>&nbsp;</svg>",
        "<svg>a < b</svg>",
        "<svg/><svg/>",
        "<svg>\u{1}</svg>",
        r#"<svg a="x"b="y"/>"#,
        "<meta charset=\"utf-8\">",
        "text",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
}
