<% @meta int a = 1; %>
@meta for enum (auto e : E) <% x[@(e)]; %>
