//! A small mutable XML tree for the upgrade of pre-4.0 documents: elements with their
//! attributes, text and children, each remembering the line it came from, written back out
//! with that line as an attribute ([`SOURCE_LINE_ATTRIBUTE`]) so that errors in the upgraded
//! document still name the line of the file the user wrote.

use roxmltree::Node;

/// The attribute carrying an upgraded element's line in the original file.
pub(crate) const SOURCE_LINE_ATTRIBUTE: &str = "ferrobody-source-line";

/// One element. Comments are dropped; text is the element's own text (OpenSim's properties
/// hold either text or elements, never both).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Element {
    pub tag: String,
    pub attributes: Vec<(String, String)>,
    pub text: String,
    pub children: Vec<Element>,
    /// 1-based line in the original file (that of the element it was made for when created).
    pub line: u32,
}

impl Element {
    /// A new element with text, made at `line`.
    pub fn with_text(tag: &str, text: impl Into<String>, line: u32) -> Self {
        Element {
            tag: tag.to_string(),
            attributes: Vec::new(),
            text: text.into(),
            children: Vec::new(),
            line,
        }
    }

    /// A copy of a parsed element and everything below it.
    pub fn from_node(node: Node, doc: &roxmltree::Document) -> Self {
        let mut element = Element::with_text(
            node.tag_name().name(),
            String::new(),
            doc.text_pos_at(node.range().start).row,
        );
        element.attributes = node
            .attributes()
            .map(|a| (a.name().to_string(), a.value().to_string()))
            .collect();
        for c in node.children() {
            if c.is_element() {
                element.children.push(Element::from_node(c, doc));
            } else if c.is_text() {
                element.text.push_str(c.text().unwrap_or(""));
            }
        }
        if !element.children.is_empty() && element.text.trim().is_empty() {
            element.text.clear();
        }
        element
    }

    /// The value of attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets attribute `name`.
    pub fn set_attribute(&mut self, name: &str, value: &str) {
        match self.attributes.iter_mut().find(|(n, _)| n == name) {
            Some(a) => a.1 = value.to_string(),
            None => self.attributes.push((name.to_string(), value.to_string())),
        }
    }

    /// The component name (`name` attribute), empty when none.
    pub fn name(&self) -> &str {
        self.attribute("name").unwrap_or("")
    }

    /// The first child with this tag.
    pub fn child(&self, tag: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.tag == tag)
    }

    /// The first child with this tag, mutable.
    pub fn child_mut(&mut self, tag: &str) -> Option<&mut Element> {
        self.children.iter_mut().find(|c| c.tag == tag)
    }

    /// The trimmed text of the first child with this tag.
    pub fn child_text(&self, tag: &str) -> Option<&str> {
        self.child(tag).map(|c| c.text.trim())
    }

    /// Removes and returns the first child with this tag.
    pub fn take_child(&mut self, tag: &str) -> Option<Element> {
        let at = self.children.iter().position(|c| c.tag == tag)?;
        Some(self.children.remove(at))
    }

    /// Renames the first child `from` to `to` (OpenSim's `XMLDocument::renameChildNode`).
    pub fn rename_child(&mut self, from: &str, to: &str) {
        if let Some(c) = self.child_mut(from) {
            c.tag = to.to_string();
        }
    }

    /// Appends a child holding `text`, made at this element's line.
    pub fn push_text_child(&mut self, tag: &str, text: impl Into<String>) {
        let line = self.line;
        self.children.push(Element::with_text(tag, text, line));
    }

    /// Sets child `tag`'s text, adding the child where missing.
    pub fn set_child_text(&mut self, tag: &str, text: impl Into<String>) {
        match self.child_mut(tag) {
            Some(c) => c.text = text.into(),
            None => self.push_text_child(tag, text),
        }
    }

    /// The elements of a set (`<objects>` children) or of a list (own children), mutable.
    pub fn items_mut(&mut self) -> &mut Vec<Element> {
        if self.child("objects").is_some() {
            &mut self.child_mut("objects").expect("checked").children
        } else {
            &mut self.children
        }
    }

    /// This element and every element below it, depth first, each with `f`.
    pub fn visit_mut(&mut self, f: &mut impl FnMut(&mut Element)) {
        f(self);
        for c in &mut self.children {
            c.visit_mut(f);
        }
    }

    /// The XML text of this element, each element carrying its source line.
    pub fn write(&self, out: &mut String) {
        out.push('<');
        out.push_str(&self.tag);
        for (name, value) in &self.attributes {
            if name == SOURCE_LINE_ATTRIBUTE {
                continue;
            }
            out.push_str(&format!(" {name}=\"{}\"", escape(value)));
        }
        out.push_str(&format!(" {SOURCE_LINE_ATTRIBUTE}=\"{}\">", self.line));
        out.push_str(&escape(&self.text));
        for c in &self.children {
            c.write(out);
        }
        out.push_str("</");
        out.push_str(&self.tag);
        out.push('>');
    }
}

/// Text with XML's five special characters escaped.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_text_parses_back_to_the_same_tree_with_lines() {
        let text = "<A name=\"a &amp; b\">\n  <!-- c -->\n  <B>1 &lt; 2</B>\n  <C><D/></C>\n</A>";
        let doc = roxmltree::Document::parse(text).unwrap();
        let tree = Element::from_node(doc.root_element(), &doc);
        assert_eq!(tree.name(), "a & b");
        assert_eq!(tree.child_text("B"), Some("1 < 2"));
        assert_eq!(tree.child("C").unwrap().line, 4);
        let mut out = String::new();
        tree.write(&mut out);
        let again = roxmltree::Document::parse(&out).unwrap();
        let b = again.descendants().find(|n| n.has_tag_name("B")).unwrap();
        assert_eq!(b.attribute(SOURCE_LINE_ATTRIBUTE), Some("3"));
        assert_eq!(b.text(), Some("1 < 2"));
        let mut reread = Element::from_node(again.root_element(), &again);
        reread.visit_mut(&mut |e| {
            e.line = e.attribute(SOURCE_LINE_ATTRIBUTE).unwrap().parse().unwrap();
            e.attributes.retain(|(n, _)| n != SOURCE_LINE_ATTRIBUTE);
        });
        assert_eq!(reread, tree);
    }
}
